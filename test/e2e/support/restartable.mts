import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { startN8n } from '../../support/n8nProcess.mjs';
import { loginN8n, nodeOutput, type N8nRestApi } from '../../support/n8nRestApi.mjs';
import {
	e2e,
	endpointRegistered,
	sandboxControl,
	sandboxCredential,
	unique,
	waitFor,
} from './context.mjs';
import { triggerWorkflow } from './workflows.mjs';

/*
 * An n8n of its own (regular mode), on its own data, so the suite's instance is never stopped:
 * one grouped trigger workflow, stopped and started again on the same folder and port.
 */

export interface RunJson {
	messages?: Array<{ text: string; from?: { phone?: string } }>;
	burst?: { closed_by?: string; error?: string };
}

export interface RestartableN8n {
	api(): N8nRestApi;
	workflowId: string;
	/** Sends `signal` to n8n and waits for it to exit. */
	stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
	/** Starts it again; resolves to when it is back. */
	start(): Promise<number>;
	/** The trigger's output of every run so far whose first message's text starts with `tag `. */
	runs(tag: string): Promise<RunJson[]>;
	close(): Promise<void>;
}

export async function restartableN8n(
	name: string,
	parameters: Record<string, unknown>,
): Promise<RestartableN8n> {
	const userFolder = join(e2e().userFolder, '..', `${name}-${randomUUID().slice(0, 6)}`);
	let n8n: Awaited<ReturnType<typeof startN8n>> | undefined;
	let api: N8nRestApi | undefined;
	let starts = 0;
	const start = async () => {
		starts++;
		n8n = await startN8n({
			userFolder,
			port: n8n?.port,
			fresh: starts === 1,
			installPackage: starts === 1,
			logName: `${name}-start-${starts}.log`,
		});
		api = await loginN8n(n8n.url, e2e().owner);
		return Date.now();
	};
	await start();
	const current = () => api as N8nRestApi;
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
		workflowId: workflow.id,
		start,
		async stop(signal) {
			const running = n8n as NonNullable<typeof n8n>;
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
		async close() {
			await api?.deactivateWorkflow(workflow.id).catch(() => undefined);
			await n8n?.stop();
		},
	};
}

/** Resolves once the service has nothing queued for messages whose text holds `marker`. */
export async function nothingQueued(marker: string, timeoutMs = 300_000): Promise<void> {
	await waitFor(
		`every delivery of "${marker}" settled`,
		async () => {
			const { deliveries } = await sandboxControl('GET', '/webhooks');
			const queued = (deliveries as Array<{ status: string; payload?: string }>).filter(
				(delivery) => delivery.status === 'queued' && delivery.payload?.includes(marker),
			);
			return queued.length === 0 ? true : undefined;
		},
		timeoutMs,
	);
}
