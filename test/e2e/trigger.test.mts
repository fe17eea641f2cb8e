import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	N8nRestError,
	nodeOutput,
	type N8nExecution,
	type N8nRestApi,
	type N8nWorkflow,
} from '../support/n8nRestApi.mjs';
import {
	e2e,
	n8nApi,
	sandboxControl,
	sandboxCredential,
	unique,
	waitFor,
} from './support/context.mjs';
import { ANSWERS_TRIGGER } from './support/chatAnswers.mjs';
import { ownN8n } from './support/ownN8n.mjs';
import { triggerWorkflow } from './support/workflows.mjs';

interface Endpoint {
	id: string;
	url: string;
	eventTypes: string[];
	status: string;
	secret: string;
}

interface Delivery {
	endpointId: string;
	eventId: string;
	eventType: string;
	status: string;
	lastStatusCode: number | null;
	payload: string | null;
}

const sandboxWebhooks = () =>
	sandboxControl<{ endpoints: Endpoint[]; deliveries: Delivery[] }>('GET', '/webhooks');

/**
 * One workflow with the trigger, activated through n8n's REST API, then driven only from outside:
 * the sandbox delivers signed events to n8n's production webhook, as the real service would.
 */
describe('trigger node in a real n8n', { tags: ['every-line'] }, () => {
	let api: N8nRestApi;
	let workflow: N8nWorkflow;
	let webhookUrl: string;
	let endpoint: Endpoint;

	const executions = () => api.listExecutions(workflow.id);
	const eventIdOf = async (execution: N8nExecution) =>
		nodeOutput(await api.getExecution(execution.id), 'Trigger')?.[0]?.event_id;

	/** Posts a delivery to n8n's webhook as the service would, signed with the endpoint's secret. */
	async function deliver(envelope: Record<string, unknown>, tamper = false) {
		const body = JSON.stringify(envelope);
		const id = `msg_${randomUUID().replaceAll('-', '')}`;
		const now = new Date();
		const signature = new Webhook(endpoint.secret).sign(id, now, body);
		const sent = tamper ? body.replace('"text":"', '"text":"X') : body;
		return fetch(webhookUrl, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'webhook-id': id,
				'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
				'webhook-signature': signature,
			},
			body: sent,
		});
	}

	beforeAll(async () => {
		api = await n8nApi();
		const credential = await sandboxCredential(api);
		const webhookId = randomUUID();
		webhookUrl = `${e2e().webhookBaseUrl}/webhook/${webhookId}/webhook`;
		workflow = await api.createWorkflow(
			triggerWorkflow(unique('e2e trigger'), credential, webhookId, {
				registration: 'auto',
				events: ['message.received'],
			}),
		);
	});

	afterAll(async () => {
		// Leave no registered endpoint behind if a test failed before deactivation.
		if (workflow && (await api.getWorkflow(workflow.id)).active)
			await api.deactivateWorkflow(workflow.id);
	});

	it('registers its endpoint in the sandbox when activated', async () => {
		await api.activateWorkflow(workflow.id);
		// n8n 2.x answers the activation first and registers the trigger's webhooks right after.
		const registered = await waitFor('the trigger to register its endpoint', async () => {
			const { endpoints } = await sandboxWebhooks();
			const matching = endpoints.filter(
				(candidate) => candidate.url === webhookUrl && candidate.status === 'active',
			);
			return matching.length > 0 ? matching : undefined;
		});
		expect(registered).toHaveLength(1);
		expect(registered[0].eventTypes).toEqual(['message.received']);
		endpoint = registered[0];
	});

	it('runs exactly one successful execution for a signed message.received', async () => {
		const text = unique('e2e incoming');
		await sandboxControl('POST', '/inject/message', {
			from: { phone: '447700900123', name: 'Bob Example' },
			text,
		});
		const delivery = await waitFor('the sandbox to deliver the event', async () => {
			const { deliveries } = await sandboxWebhooks();
			return deliveries.find(
				(d) =>
					d.endpointId === endpoint.id &&
					d.eventType === 'message.received' &&
					d.status === 'delivered',
			);
		});
		expect(delivery.lastStatusCode).toBe(200);
		const [execution] = await waitFor('n8n to record the execution', async () => {
			const list = await executions();
			return list.some((e) => e.status === 'success') ? list : undefined;
		});
		expect(await executions()).toHaveLength(1);
		expect(execution.status).toBe('success');
		const [item] = nodeOutput(await api.getExecution(execution.id), 'Trigger') ?? [];
		expect(item).toEqual(
			expect.objectContaining({
				event_id: delivery.eventId,
				event_type: 'message.received',
				text,
				channel: 'qr',
				sender: { phone: '447700900123', name: 'Bob Example' },
			}),
		);
	});

	it('answers a tampered delivery with 401 and starts nothing', async () => {
		const { deliveries } = await sandboxWebhooks();
		const original = JSON.parse(
			deliveries.find((d) => d.endpointId === endpoint.id && d.eventType === 'message.received')
				?.payload ?? '{}',
		);
		// A message of its own per delivery: a run claims its message, so a new event for the
		// original's message would run nothing.
		const envelope = (id: string) => ({
			...original,
			id,
			data: {
				...original.data,
				message: { ...original.data.message, id: `msg_${id}`, text: id },
			},
		});
		const tamperedId = `evt_${randomUUID().replaceAll('-', '')}`;
		const tampered = await deliver(envelope(tamperedId), true);
		expect(tampered.status).toBe(401);

		// A correctly signed delivery afterwards is accepted: the 401 came from the tampering alone, and
		// once its execution is recorded, any execution of the tampered event would be recorded too.
		const validId = `evt_${randomUUID().replaceAll('-', '')}`;
		expect((await deliver(envelope(validId))).status).toBe(200);
		await waitFor('the valid delivery to be executed', async () => {
			const list = await executions();
			return list.length === 2 && list.every((e) => e.status === 'success') ? list : undefined;
		});
		const eventIds = await Promise.all((await executions()).map(eventIdOf));
		expect(eventIds).toContain(validId);
		expect(eventIds).not.toContain(tamperedId);
	});

	it('removes its endpoint from the sandbox when deactivated', async () => {
		await api.deactivateWorkflow(workflow.id);
		await waitFor('the trigger to delete its endpoint', async () => {
			const { endpoints } = await sandboxWebhooks();
			return endpoints.some(
				(candidate) => candidate.id === endpoint.id && candidate.status !== 'deleted',
			)
				? undefined
				: true;
		});
		const afterwards = await fetch(webhookUrl, {
			method: 'POST',
			body: '{}',
			headers: { 'content-type': 'application/json' },
		});
		expect(afterwards.status).toBe(404);
	});
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/*
 * An n8n whose WEBHOOK_URL it cannot reach itself (Docker without hairpin, a firewall): a trigger
 * with Pass Answers to Send and Wait would hand every reply to nobody, so its publication fails
 * where n8n shows a bad key, naming the address. An n8n of its own (a start of a few seconds), in
 * regular mode: the check runs where n8n publishes, whatever serves the webhooks.
 */
describe.runIf(e2e().mode === 'regular')('publishing where n8n cannot reach its own URL', () => {
	const env: Record<string, string> = {};
	const own = ownN8n('unreachable', undefined, env);

	beforeAll(async () => {
		env.WEBHOOK_URL = `http://127.0.0.1:${await closedPort()}/`;
		await own.start();
	}, 240_000);

	afterAll(async () => await own.n8n?.stop());

	it('a trigger with Pass Answers to Send and Wait fails to publish, naming the URL; nothing is registered', async () => {
		const api = own.api as N8nRestApi;
		const credential = await sandboxCredential(api);
		const webhookId = randomUUID();
		const workflow = await api.createWorkflow(
			triggerWorkflow(unique('e2e unreachable'), credential, webhookId, ANSWERS_TRIGGER),
		);
		const said = `This n8n cannot reach its own webhook URL ${env.WEBHOOK_URL}webhook/${webhookId}/webhook (connection refused), which Pass Answers to Send and Wait needs`;
		// n8n 1.x answers the activation with the error; 2.x publishes later and keeps it in the
		// publication status.
		const answer = await api.activateWorkflow(workflow.id).catch((error: unknown) => error);
		const error =
			answer instanceof N8nRestError
				? JSON.stringify(answer.body)
				: await waitFor('the publication to fail', async () => {
						const { status, triggers } = await api.request<{
							status: string;
							triggers: Array<{ errorMessage: string | null }>;
						}>('GET', `/workflows/${workflow.id}/publication-status`);
						return status === 'failed' ? JSON.stringify(triggers) : undefined;
					});
		expect(error).toContain(said);
		const { endpoints } = await sandboxWebhooks();
		expect(endpoints.filter((endpoint) => endpoint.url.includes(webhookId))).toEqual([]);
	});
});
