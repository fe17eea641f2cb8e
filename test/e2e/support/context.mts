import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { CREDENTIAL_TYPE, sandboxCredentialData } from '../../dev/stack.mjs';
import { loginN8n, type N8nRestApi } from '../../support/n8nRestApi.mjs';

/** What globalSetup hands to the test files (plain data: they run in other processes). */
export interface E2eContext {
	mode: 'regular' | 'queue';
	/** The n8n under test (`npm run test:e2e -- --n8n <version>`), e.g. 2.40.7 or 1.123.81. */
	n8nVersion: string;
	/** Main process: editor and REST API. */
	n8nUrl: string;
	/** Production webhooks: the webhook process in queue mode. */
	webhookBaseUrl: string;
	/** Queue mode: the first worker's log, where it names each execution it runs. */
	workerLog?: string;
	/** Queue mode: every worker's log and process id (its process group, to stop it). */
	workerLogs?: string[];
	workerPids?: number[];
	/** Every process serving production webhooks (queue mode: the webhook processes). */
	webhookBaseUrls: string[];
	/** Queue mode: each webhook process's id (its process group, to stop it) and port. */
	webhookPids?: number[];
	/** The database n8n runs on. */
	database: 'postgres' | 'sqlite';
	/** Queue mode: the settings another worker needs to join (with `userFolder`, the shared one). */
	queueEnv?: Record<string, string>;
	userFolder: string;
	n8nLog: string;
	/** Where n8n may write files (the attachment saver example writes there). */
	filesDir: string;
	n8nStartSeconds: number;
	owner: { email: string; password: string };
	sandboxUrl: string;
	/** Sandbox keys by persona; `owner` has every scope. */
	keys: Record<string, string>;
}

declare module 'vitest' {
	export interface ProvidedContext {
		e2e: E2eContext;
	}
}

export function e2e(): E2eContext {
	return inject('e2e');
}

export function n8nApi(): Promise<N8nRestApi> {
	const { n8nUrl, owner } = e2e();
	return loginN8n(n8nUrl, owner);
}

/** The sandbox's control API (`/__sandbox/...`), the same one `npm run dev` users call with curl. */
export async function sandboxControl<T = any>(
	method: string,
	path: string,
	body?: unknown,
): Promise<T> {
	const response = await fetch(`${e2e().sandboxUrl}/__sandbox${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const parsed = (await response.json()) as T;
	if (!response.ok)
		throw new Error(
			`sandbox ${method} ${path} answered ${response.status}: ${JSON.stringify(parsed)}`,
		);
	return parsed;
}

/** Polls `probe` until it returns something other than undefined; fails with `what` after the deadline. */
export async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined>,
	timeoutMs = 60_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** A saved n8n credential of our type pointing at the sandbox with the given key. */
export async function sandboxCredential(api: N8nRestApi, apiKey = e2e().keys.owner) {
	const data = sandboxCredentialData({ url: e2e().sandboxUrl, apiKey }, apiKey);
	const created = await api.createCredential({
		name: `e2e ${randomUUID()}`,
		type: CREDENTIAL_TYPE,
		data,
	});
	return { id: created.id, name: created.name, data };
}

/** Unique per call, so tests never collide in the shared n8n and sandbox. */
export function unique(prefix: string): string {
	return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** n8n answers an activation before its trigger has registered the endpoint: wait for the endpoint. */
export async function endpointRegistered(webhookId: string): Promise<void> {
	await waitFor(`the endpoint of webhook ${webhookId}`, async () => {
		const { endpoints } = await sandboxControl<{
			endpoints: Array<{ url: string; status: string }>;
		}>('GET', '/webhooks');
		return endpoints.some(
			(endpoint) =>
				endpoint.url.endsWith(`/webhook/${webhookId}/webhook`) && endpoint.status === 'active',
		)
			? true
			: undefined;
	});
}

/**
 * Deactivates a workflow that will not come back, and deletes the endpoint its trigger paused if it
 * held a burst at that moment (the trigger keeps it for the next activation; its log tells the user
 * to delete it in the dashboard), so it takes none of the account's ten places in later files.
 */
export async function retireWorkflow(
	api: N8nRestApi,
	workflowId: string,
	webhookId: string,
): Promise<void> {
	await api.deactivateWorkflow(workflowId).catch(() => undefined);
	const ours = async () =>
		(
			await sandboxControl<{ endpoints: Array<{ id: string; url: string; status: string }> }>(
				'GET',
				'/webhooks',
			)
		).endpoints.filter((endpoint) => endpoint.url.endsWith(`/webhook/${webhookId}/webhook`));
	// n8n 2.x may answer the deactivation before the trigger's hook has run.
	const endpoints = await waitFor(
		`the endpoint of webhook ${webhookId} no longer active`,
		async () => {
			const listed = await ours();
			return listed.some((endpoint) => endpoint.status === 'active') ? undefined : listed;
		},
	);
	const { sandboxUrl, keys } = e2e();
	for (const endpoint of endpoints) {
		if (endpoint.status !== 'paused') continue;
		await fetch(`${sandboxUrl}/api/v1/webhooks/${endpoint.id}`, {
			method: 'DELETE',
			headers: {
				authorization: `Bearer ${keys.owner}`,
				'idempotency-key': `retire-${endpoint.id}`,
			},
		});
	}
}
