// A small client for a running n8n's own REST API (`/rest/...`, the one its editor uses), logged in as the
// owner with the session cookie. Dev setup and the end-to-end suite drive n8n only through this.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { installPaths, N8N_MAJOR } from './n8nInstall.mjs';

export class N8nRestError extends Error {
	constructor(method, path, status, body) {
		super(
			`n8n ${method} ${path} answered ${status}: ${typeof body === 'string' ? body : JSON.stringify(body)}`,
		);
		this.status = status;
		this.body = body;
	}
}

// Execution data is stored "flatted" (a JSON encoding of object graphs); use n8n's own decoder, loaded
// when first needed: `npm run try` lists runs of whichever n8n `npm run dev` started without it.
let flatted;
const decode = (data) =>
	(flatted ??= createRequire(join(installPaths().n8nModules, 'n8n', 'package.json'))(
		'flatted',
	)).parse(data);

/** Execution statuses n8n may still move on from. */
const UNFINISHED = ['new', 'running', 'waiting'];

export async function loginN8n(baseUrl, { email, password }) {
	const response = await fetch(`${baseUrl}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: email, password }),
	});
	if (!response.ok)
		throw new N8nRestError('POST', '/rest/login', response.status, await response.text());
	const cookie = response.headers
		.getSetCookie()
		.map((line) => line.split(';')[0])
		.find((pair) => pair.startsWith('n8n-auth='));
	if (!cookie) throw new Error('n8n login succeeded but set no n8n-auth cookie');
	return new N8nRestApi(baseUrl, cookie);
}

export class N8nRestApi {
	constructor(baseUrl, cookie) {
		this.baseUrl = baseUrl;
		this.cookie = cookie;
	}

	/** Calls `/rest<path>` and unwraps n8n's `{ data }` envelope. */
	async request(method, path, body) {
		const response = await fetch(`${this.baseUrl}/rest${path}`, {
			method,
			headers: {
				cookie: this.cookie,
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		let parsed = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// Kept as text for the error message.
		}
		if (!response.ok) throw new N8nRestError(method, path, response.status, parsed);
		return parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed;
	}

	listCredentials() {
		return this.request('GET', '/credentials');
	}

	createCredential({ name, type, data }) {
		return this.request('POST', '/credentials', { name, type, data });
	}

	updateCredential(id, { name, type, data }) {
		return this.request('PATCH', `/credentials/${id}`, { name, type, data });
	}

	/**
	 * The editor's "Test" button: `{ status: 'OK' | 'Error', message }`. With a saved credential's id n8n
	 * merges `data` over the stored (redacted) values; the owner may pass id '' to test unsaved data.
	 */
	testCredential({ id = '', name = 'test', type, data }) {
		return this.request('POST', '/credentials/test', { credentials: { id, name, type, data } });
	}

	listWorkflows() {
		return this.request('GET', '/workflows');
	}

	getWorkflow(id) {
		return this.request('GET', `/workflows/${id}`);
	}

	createWorkflow({ name, nodes, connections, settings = {} }) {
		return this.request('POST', '/workflows', {
			name,
			nodes,
			connections,
			settings,
			active: false,
		});
	}

	/** Publishes the workflow's current version (n8n 2.x activates a chosen version). */
	async activateWorkflow(id) {
		const { versionId } = await this.getWorkflow(id);
		return this.request('POST', `/workflows/${id}/activate`, { versionId });
	}

	deactivateWorkflow(id) {
		return this.request('POST', `/workflows/${id}/deactivate`, {});
	}

	deleteWorkflow(id) {
		return this.request('DELETE', `/workflows/${id}`);
	}

	/** The editor's "Execute workflow" from a given trigger; resolves to `{ executionId }`. */
	async runManually(id, triggerName) {
		// n8n 1.x runs the workflow the editor sends; 2.x loads the saved one.
		const workflowData = N8N_MAJOR < 2 ? await this.getWorkflow(id) : undefined;
		return this.request('POST', `/workflows/${id}/run`, {
			workflowData,
			triggerToStartFrom: { name: triggerName },
		});
	}

	async listExecutions(workflowId) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const page = await this.request('GET', `/executions?filter=${filter}&limit=100`);
		return page.results;
	}

	/**
	 * The newest executions of every workflow, newest first (summaries: status, times, workflowName);
	 * `filter` as n8n's executions list takes it, e.g. `{ status: ['waiting'] }`.
	 */
	async recentExecutions(limit = 10, filter = undefined) {
		const query = filter ? `&filter=${encodeURIComponent(JSON.stringify(filter))}` : '';
		const page = await this.request('GET', `/executions?limit=${limit}${query}`);
		return page.results;
	}

	/** Every execution of a workflow, newest first, page after page (n8n lists 100 at most per call). */
	async listAllExecutions(workflowId) {
		const all = [];
		for (;;) {
			const filter = encodeURIComponent(JSON.stringify({ workflowId }));
			const after = all.length > 0 ? `&lastId=${all[all.length - 1].id}` : '';
			const page = await this.request('GET', `/executions?filter=${filter}&limit=100${after}`);
			all.push(...page.results);
			if (page.results.length < 100) return all;
		}
	}

	/** One execution with its run data decoded: `{ status, finished, data: { resultData: { runData } } }`. */
	async getExecution(id) {
		let execution = await this.request('GET', `/executions/${id}`);
		// n8n 1.x on SQLite writes a finished execution's status and its data in two statements with no
		// transaction: a read between them sees "success" beside the data of the waiting or new
		// execution. A finished execution is returned once two reads agree on its data.
		for (let read = 0; read < 20 && !UNFINISHED.includes(execution.status); read++) {
			await new Promise((r) => setTimeout(r, 150));
			const again = await this.request('GET', `/executions/${id}`);
			if (
				again.status === execution.status &&
				JSON.stringify(again.data) === JSON.stringify(execution.data)
			)
				break;
			execution = again;
		}
		return {
			...execution,
			data: typeof execution.data === 'string' ? decode(execution.data) : execution.data,
		};
	}

	/** Polls until the execution has left the running/waiting states. */
	async waitForExecution(id, timeoutMs = 60_000) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const execution = await this.getExecution(id);
			if (!UNFINISHED.includes(execution.status)) return execution;
			if (Date.now() > deadline)
				throw new Error(`execution ${id} still ${execution.status} after ${timeoutMs} ms`);
			await new Promise((r) => setTimeout(r, 300));
		}
	}
}

/** Output items (json) of one node in a decoded execution. */
export function nodeOutput(execution, nodeName) {
	const runs = execution.data?.resultData?.runData?.[nodeName];
	if (!runs) return undefined;
	return runs.flatMap((run) => (run.data?.main ?? []).flat().map((item) => item.json));
}

/** The error message n8n recorded for the execution, if any. */
export function executionError(execution) {
	return execution.data?.resultData?.error?.message;
}
