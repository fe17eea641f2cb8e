import { randomUUID } from 'node:crypto';
import { nodeOutput, type N8nRestApi } from '../../support/n8nRestApi.mjs';
import {
	e2e,
	endpointRegistered,
	sandboxControl,
	sandboxCredential,
	unique,
	waitFor,
} from './context.mjs';
import { ownN8n } from './ownN8n.mjs';
import { triggerWorkflow } from './workflows.mjs';

/*
 * An n8n of its own (regular mode), on its own data, so the suite's instance is never stopped:
 * one trigger workflow (and whatever a test adds with its credential), stopped and started again
 * on the same folder and port.
 */

export interface RunJson {
	messages?: Array<{ text: string; from?: { phone?: string } }>;
	burst?: { closed_by?: string; error?: string };
}

export interface RestartableN8n {
	api(): N8nRestApi;
	/** The sandbox credential its workflows use. */
	credential: { id: string; name: string };
	workflowId: string;
	/** Sends `signal` to n8n and waits for it to exit. */
	stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
	/** Starts it again; resolves to when it is back. */
	start(): Promise<number>;
	/** The trigger's output of every run so far whose first message's text starts with `tag `. */
	runs(tag: string): Promise<RunJson[]>;
	/** Every execution n8n marked crashed, as the text n8n keeps of it (its input included). */
	crashed(): Promise<string[]>;
	close(): Promise<void>;
}

export async function restartableN8n(
	name: string,
	parameters: Record<string, unknown>,
): Promise<RestartableN8n> {
	const own = ownN8n(name);
	await own.start();
	const current = () => own.api as N8nRestApi;
	const credential = await sandboxCredential(current());
	const webhookId = randomUUID();
	const workflow = await current().createWorkflow(
		triggerWorkflow(unique(`e2e ${name}`), credential, webhookId, parameters),
	);
	await current().activateWorkflow(workflow.id);
	await endpointRegistered(webhookId);
	/** Each finished execution's trigger output, read once. */
	const outputs = new Map<string, RunJson>();
	return {
		api: current,
		credential,
		workflowId: workflow.id,
		start: own.start,
		async stop(signal) {
			const running = own.n8n as NonNullable<typeof own.n8n>;
			process.kill(-running.pid, signal);
			await running.exited;
		},
		async runs(tag) {
			const executions = await current().listAllExecutions(workflow.id);
			for (const { id } of executions.filter((execution) => !outputs.has(execution.id))) {
				const execution = await current().getExecution(id);
				if (execution.finished || execution.status === 'success')
					outputs.set(id, nodeOutput(execution, 'Trigger')?.[0] as RunJson);
			}
			return [...outputs.values()].filter((json) =>
				json?.messages?.[0]?.text.startsWith(`${tag} `),
			);
		},
		async crashed() {
			const executions = await current().listAllExecutions(workflow.id);
			const texts: string[] = [];
			for (const { id } of executions.filter((execution) => execution.status === 'crashed'))
				texts.push(JSON.stringify(await current().getExecution(id)));
			return texts;
		},
		async close() {
			await own.api?.deactivateWorkflow(workflow.id).catch(() => undefined);
			await own.n8n?.stop();
		},
	};
}

/**
 * Resolves once the service has nothing queued for messages whose text holds `marker`, to endpoints
 * that send: a paused one (a trigger pauses its own when its workflow is deactivated while holding a
 * burst) keeps its deliveries for that workflow's next activation, not for this n8n.
 */
export async function nothingQueued(marker: string, timeoutMs = 300_000): Promise<void> {
	type Delivery = {
		endpointId: string;
		status: string;
		payload?: string;
		attempts: number;
		lastStatusCode?: number | null;
		lastError?: string | null;
	};
	const queued = async () => {
		const { deliveries, endpoints } = await sandboxControl('GET', '/webhooks');
		const paused = new Set(
			(endpoints as Array<{ id: string; status: string }>)
				.filter((endpoint) => endpoint.status === 'paused')
				.map((endpoint) => endpoint.id),
		);
		return (deliveries as Delivery[]).filter(
			(delivery) =>
				delivery.status === 'queued' &&
				delivery.payload?.includes(marker) &&
				!paused.has(delivery.endpointId),
		);
	};
	try {
		await waitFor(
			`every delivery of "${marker}" settled`,
			async () => ((await queued()).length === 0 ? true : undefined),
			timeoutMs,
		);
	} catch (error) {
		// What each still-queued delivery's last attempt got: the failure says why it waits.
		const counts = new Map<string, number>();
		for (const delivery of await queued()) {
			const last = `${delivery.attempts} attempts, last ${delivery.lastStatusCode ?? delivery.lastError ?? 'none'}`;
			counts.set(last, (counts.get(last) ?? 0) + 1);
		}
		throw new Error(`${(error as Error).message}: ${JSON.stringify([...counts])}`);
	}
}

/**
 * Resends, through the service's API, every delivery of `marker` still queued for a retry, as the
 * service itself would later (a retry after a time-out comes 2 or 10 minutes on); returns how many.
 */
export async function resendQueued(marker: string): Promise<number> {
	const { deliveries } = await sandboxControl('GET', '/webhooks');
	const queued = (
		deliveries as Array<{ id: string; endpointId: string; status: string; payload?: string }>
	).filter((delivery) => delivery.status === 'queued' && delivery.payload?.includes(marker));
	for (const delivery of queued) {
		const response = await fetch(
			`${e2e().sandboxUrl}/api/v1/webhooks/${delivery.endpointId}/deliveries/${delivery.id}/resend`,
			{
				method: 'POST',
				headers: {
					authorization: `Bearer ${e2e().keys.owner}`,
					'content-type': 'application/json',
				},
				body: '{}',
			},
		);
		if (!response.ok)
			throw new Error(`resend ${delivery.id}: ${response.status} ${await response.text()}`);
	}
	return queued.length;
}
