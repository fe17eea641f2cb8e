import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_TYPES, withCredential } from '../dev/stack.mjs';
import { startN8n } from '../support/n8nProcess.mjs';
import { nodeOutput, type N8nRestApi, type N8nWorkflow } from '../support/n8nRestApi.mjs';
import {
	e2e,
	n8nApi,
	sandboxControl,
	sandboxCredential,
	unique,
	waitFor,
} from './support/context.mjs';

// Queue mode as production scales out (globalSetup: PostgreSQL, Redis, main, two webhook processes,
// two workers). A reply bot on the Business channel (no per-minute QR cap to wait for) answers each
// event; whatever n8n does with copies, the sandbox must hold exactly one reply per event.
const { mode, webhookBaseUrls } = e2e();
const skipReason =
	mode !== 'queue'
		? 'queue mode only'
		: webhookBaseUrls.length < 2
			? 'needs two webhook processes'
			: '';

interface Endpoint {
	id: string;
	url: string;
	status: string;
	secret: string;
}
interface Delivery {
	endpointId: string;
	eventId: string;
	payload: string | null;
}
interface Send {
	idempotency_key: string;
	conversation_id?: string;
}

const EVENTS = 12;
const BATCH = 8;

/** Trigger → Code (one event fans out into `BATCH` items) → the action node sending each as a reply. */
function fanOutWorkflow(name: string, webhookId: string) {
	return {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: 'Trigger',
				type: NODE_TYPES.trigger,
				typeVersion: 1.1,
				position: [0, 0] as [number, number],
				webhookId,
				parameters: { registration: 'auto', events: ['message.received'] },
			},
			{
				id: randomUUID(),
				name: 'Fan out',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [240, 0] as [number, number],
				parameters: {
					jsCode: `return Array.from({ length: ${BATCH} }, (_, index) => ({ json: { ...$input.first().json, part: index + 1 } }));`,
				},
			},
			{
				id: randomUUID(),
				name: 'Reply',
				type: NODE_TYPES.action,
				typeVersion: 1,
				position: [480, 0] as [number, number],
				parameters: replyParameters('=Part {{ $json.part }}: {{ $json.text }}'),
			},
		],
		connections: {
			Trigger: { main: [[{ node: 'Fan out', type: 'main', index: 0 }]] },
			'Fan out': { main: [[{ node: 'Reply', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

function replyParameters(text: string) {
	return {
		resource: 'message',
		operation: 'send',
		channel: 'business',
		sendTo: 'conversationId',
		conversationId: '={{ $json.conversation_id }}',
		messageType: 'text',
		text,
	};
}

function isAlive(pid: number): boolean {
	try {
		process.kill(-pid, 0);
		return true;
	} catch {
		return false;
	}
}

async function sendsFor(eventId: string): Promise<Send[]> {
	const { sends } = await sandboxControl<{ sends: Send[] }>('GET', '/sends');
	return sends.filter((send) => send.idempotency_key.startsWith(`${eventId}:`));
}

async function registeredEndpoint(url: string): Promise<Endpoint> {
	return waitFor('the trigger to register its endpoint', async () => {
		const { endpoints } = await sandboxControl<{ endpoints: Endpoint[] }>('GET', '/webhooks');
		return endpoints.find((candidate) => candidate.url === url && candidate.status === 'active');
	});
}

describe.skipIf(skipReason)('queue mode with two webhook processes and two workers', () => {
	let api: N8nRestApi;
	let workflow: N8nWorkflow;
	let endpoint: Endpoint;
	let webhookPath: string;

	beforeAll(async () => {
		api = await n8nApi();
		const credential = await sandboxCredential(api);
		const webhookId = randomUUID();
		webhookPath = `/webhook/${webhookId}/webhook`;
		workflow = await api.createWorkflow(
			withCredential(
				{
					name: unique('e2e scale reply bot'),
					nodes: [
						{
							id: randomUUID(),
							name: 'Trigger',
							type: NODE_TYPES.trigger,
							typeVersion: 1.1,
							position: [0, 0],
							webhookId,
							parameters: { registration: 'auto', events: ['message.received'] },
						},
						{
							id: randomUUID(),
							name: 'Reply',
							type: NODE_TYPES.action,
							typeVersion: 1,
							position: [240, 0],
							parameters: replyParameters('=Got it: {{ $json.text }}'),
						},
					],
					connections: { Trigger: { main: [[{ node: 'Reply', type: 'main', index: 0 }]] } },
					settings: { executionOrder: 'v1' },
				},
				credential,
			),
		);
		await api.activateWorkflow(workflow.id);
		endpoint = await registeredEndpoint(`${webhookBaseUrls[0]}${webhookPath}`);
	});

	const liveWorkers = (e2e().workerLogs ?? []).map((logFile, index) => ({
		logFile,
		pid: (e2e().workerPids ?? [])[index],
	}));

	afterAll(async () => {
		if (workflow && (await api.getWorkflow(workflow.id)).active)
			await api.deactivateWorkflow(workflow.id);
	});

	it(`a delivery copied to both webhook processes at the same moment is answered once (${EVENTS} events)`, async () => {
		// Held deliveries: the endpoint is paused while the events happen, so the sandbox keeps the signed
		// payloads without delivering them; each is then posted to both processes at once.
		const paused = await fetch(`${e2e().sandboxUrl}/api/v1/webhooks/${endpoint.id}/pause`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${e2e().keys.owner}`,
				'content-type': 'application/json',
				'idempotency-key': randomUUID(),
			},
			body: '{}',
		});
		expect(paused.status).toBe(200);
		const texts = Array.from({ length: EVENTS }, (_, index) => unique(`dup ${index}`));
		for (const [index, text] of texts.entries()) {
			await sandboxControl('POST', '/inject/message', {
				channel: 'business',
				from: { phone: `4477009${String(index).padStart(5, '0')}`, name: 'Copy Test' },
				text,
			});
		}
		const payloads = await waitFor('the sandbox to hold every event', async () => {
			const { deliveries } = await sandboxControl<{ deliveries: Delivery[] }>('GET', '/webhooks');
			const held = deliveries.filter(
				(delivery) =>
					delivery.endpointId === endpoint.id &&
					texts.some((text) => delivery.payload?.includes(text)),
			);
			return held.length === EVENTS
				? held.map((delivery) => delivery.payload as string)
				: undefined;
		});
		const signer = new Webhook(endpoint.secret);
		const statuses = await Promise.all(
			payloads.map(async (payload) => {
				const id = `msg_${randomUUID().replaceAll('-', '')}`;
				const now = new Date();
				const headers = {
					'content-type': 'application/json',
					'webhook-id': id,
					'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
					'webhook-signature': signer.sign(id, now, payload),
				};
				const answers = await Promise.all(
					webhookBaseUrls
						.slice(0, 2)
						.map((base) =>
							fetch(`${base}${webhookPath}`, { method: 'POST', headers, body: payload }),
						),
				);
				return answers.map((answer) => answer.status);
			}),
		);
		expect(statuses.flat().every((status) => status === 200)).toBe(true);

		const eventIds = payloads.map((payload) => (JSON.parse(payload) as { id: string }).id);
		const executions = await waitFor(
			'every event to be executed',
			async () => {
				const list = await api.listExecutions(workflow.id);
				const done = list.filter(
					(execution) => !['new', 'running', 'waiting'].includes(execution.status),
				);
				const seen = new Set(
					await Promise.all(
						done.map(
							async (execution) =>
								nodeOutput(await api.getExecution(execution.id), 'Trigger')?.[0]?.event_id,
						),
					),
				);
				return eventIds.every((id) => seen.has(id)) && done.length === list.length
					? done
					: undefined;
			},
			120_000,
		);
		const repliesPerEvent = await Promise.all(
			eventIds.map(async (id) => (await sendsFor(id)).length),
		);
		console.log(
			`[e2e queue] ${EVENTS} events × 2 simultaneous copies: ${executions.length} executions, ${repliesPerEvent.reduce((a, b) => a + b, 0)} replies sent`,
		);
		expect(repliesPerEvent).toEqual(eventIds.map(() => 1));
		expect(executions.every((execution) => execution.status === 'success')).toBe(true);
	}, 240_000);

	/**
	 * Starts the fan-out workflow, lets two of its replies go out, then sends `signal` to the process
	 * group of the worker running it. Resolves with what a test needs to check the outcome.
	 */
	async function stopWorkerMidBatch(signal: NodeJS.Signals) {
		const webhookId = randomUUID();
		const credential = await sandboxCredential(api);
		const batch = await api.createWorkflow(
			withCredential(fanOutWorkflow(unique(`e2e scale batch ${signal}`), webhookId), credential),
		);
		await api.activateWorkflow(batch.id);
		await registeredEndpoint(`${webhookBaseUrls[0]}/webhook/${webhookId}/webhook`);
		// Each send is committed, then answered 1.5 s later: the batch takes long enough to stop a worker in it.
		await sandboxControl('POST', '/faults', {
			tool: 'send_message',
			kind: 'delay',
			delayMs: 1500,
			times: BATCH,
		});
		const text = unique('batch');
		await sandboxControl('POST', '/inject/message', {
			channel: 'business',
			from: { phone: '447700988001', name: 'Batch Test' },
			text,
		});
		const running = await waitFor('the batch to start on a worker', async () => {
			const [execution] = await api.listExecutions(batch.id);
			return execution?.status === 'running' ? execution : undefined;
		});
		const eventId = await waitFor('two replies to be sent', async () => {
			const { sends } = await sandboxControl<{ sends: Array<Send & { text?: string }> }>(
				'GET',
				'/sends',
			);
			const ours = sends.filter((send) => send.text?.includes(text));
			return ours.length >= 2 ? ours[0].idempotency_key.split(':')[0] : undefined;
		});
		const worker = liveWorkers.find(({ logFile }) =>
			readFileSync(logFile, 'utf8').includes(`Worker started execution ${running.id} (job`),
		);
		expect(worker).toBeDefined();
		const sentBefore = (await sendsFor(eventId)).length;
		process.kill(-worker!.pid, signal);
		liveWorkers.splice(liveWorkers.indexOf(worker!), 1);
		await waitFor(
			'the stopped worker to exit',
			async () => (isAlive(worker!.pid) ? undefined : true),
			90_000,
		);
		// A replacement joins, as an orchestrator would start one, and stays for the test files that follow
		// (the e2e runner's sweep ends it with the rest of the run).
		const replacement = await startN8n({
			userFolder: e2e().userFolder,
			command: 'worker',
			extraEnv: e2e().queueEnv ?? {},
			logName: `n8n-worker-replacement-${signal}.log`,
			outlive: true,
		});
		liveWorkers.push(replacement);
		return { batch, executionId: running.id, eventId, sentBefore };
	}

	/** Every reply of the batch exists exactly once. */
	async function expectBatchSentOnce(eventId: string, label: string) {
		const sent = await sendsFor(eventId);
		const keys = new Set(sent.map((send) => send.idempotency_key));
		console.log(
			`[e2e queue] ${label}: ${sent.length} sent, ${keys.size} distinct idempotency keys`,
		);
		expect(sent).toHaveLength(BATCH);
		expect(keys.size).toBe(BATCH);
	}

	it(`a worker stopped (SIGTERM) in the middle of a ${BATCH}-message batch finishes it: each message sent once`, async () => {
		const { batch, executionId, eventId, sentBefore } = await stopWorkerMidBatch('SIGTERM');
		try {
			const finished = await api.waitForExecution(executionId, 120_000);
			expect(finished.status).toBe('success');
			await expectBatchSentOnce(
				eventId,
				`SIGTERM after ${sentBefore} of ${BATCH} sends, execution ${finished.status}`,
			);
		} finally {
			await sandboxControl('DELETE', '/faults');
			await api.deactivateWorkflow(batch.id);
		}
	}, 240_000);

	it(`a worker killed (SIGKILL) in the middle of a batch: nothing twice, and n8n's Retry sends the rest once`, async () => {
		const { batch, executionId, eventId, sentBefore } = await stopWorkerMidBatch('SIGKILL');
		try {
			// Nothing re-runs a job whose worker died (n8n allows no stalled-job retry): the execution stays
			// "running" until stopped, as a person does in the executions list before pressing Retry.
			await api.request('POST', `/executions/${executionId}/stop`).catch(() => undefined);
			const stopped = await api.waitForExecution(executionId, 60_000);
			const sentAtCrash = (await sendsFor(eventId)).length;
			const retry = (await api.request('POST', `/executions/${executionId}/retry`, {
				loadWorkflow: false,
			})) as { id?: string } | string | boolean;
			const retried = await waitFor(
				'the retry to finish',
				async () => {
					const list = await api.listExecutions(batch.id);
					const done = list.find(
						(execution) =>
							execution.id !== executionId &&
							!['new', 'running', 'waiting'].includes(execution.status),
					);
					return done;
				},
				120_000,
			);
			expect(retried.status).toBe('success');
			await expectBatchSentOnce(
				eventId,
				`SIGKILL after ${sentBefore} of ${BATCH} sends (${sentAtCrash} when stopped, status ${stopped.status}); Retry ${JSON.stringify(retry).slice(0, 40)} ${retried.status}`,
			);
		} finally {
			await sandboxControl('DELETE', '/faults');
			await api.deactivateWorkflow(batch.id);
		}
	}, 300_000);
});
