// What every `npm run try` action needs from the stack `npm run dev` started on loopback: the sandbox's
// control API and its API with the owner's key, n8n's REST API (as the owner), the examples' start
// webhooks, and a patient wait that says what it waits for.
import { loginN8n } from '../support/n8nRestApi.mjs';
import { OWNER } from '../support/n8nProcess.mjs';
import { START_PATHS } from './tryIt.mjs';
import { waitingLine } from './tryLines.mjs';

const UNFINISHED = ['new', 'running', 'waiting'];
const pause = () => new Promise((resolve) => setTimeout(resolve, 250));

/**
 * The helpers for the stack at these addresses (`webhookBaseUrl`: where n8n serves webhooks);
 * `progress` gets a line every 10 s while a wait lasts.
 */
export function tryContext({ sandboxUrl, n8nUrl, webhookBaseUrl = n8nUrl, progress = () => {} }) {
	const answerOf = async (response) => {
		if (!response.ok)
			throw new Error(`the sandbox answered ${response.status}: ${await response.text()}`);
		return response.json();
	};
	const control = async (method, path, body) =>
		answerOf(
			await fetch(`${sandboxUrl}/__sandbox${path}`, {
				method,
				headers: body === undefined ? {} : { 'content-type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			}),
		);
	let session;
	const n8n = () => (session ??= loginN8n(n8nUrl, OWNER));

	/** Polls `probe` until it returns something; after `seconds`, fails saying what did not happen. */
	async function until(what, probe, seconds = 60) {
		const started = Date.now();
		let nextLine = 10_000;
		for (;;) {
			const value = await probe();
			if (value !== undefined) return value;
			const elapsed = Date.now() - started;
			if (elapsed > seconds * 1000) throw new Error(`after ${seconds} s, still no ${what}`);
			if (elapsed >= nextLine) {
				progress(waitingLine(what, elapsed));
				nextLine += 10_000;
			}
			await pause();
		}
	}

	const startPaths = new Map();
	/** Whether a run is one of `example` (its workflow has that start webhook, whatever its name). */
	async function isRunOf(example, run) {
		if (!startPaths.has(run.workflowId)) {
			const { nodes } = await (await n8n()).getWorkflow(run.workflowId);
			startPaths.set(run.workflowId, new Set(nodes.map((node) => node.parameters?.path)));
		}
		return startPaths.get(run.workflowId).has(START_PATHS[example]);
	}

	return {
		control,
		n8n,
		until,
		isRunOf,
		sends: async () => (await control('GET', '/sends')).sends,
		inject: (from, text, channel = 'qr', more = {}) =>
			control('POST', '/inject/message', { channel, from, text, ...more }),
		runLink: (run) => `${n8nUrl}/workflow/${run.workflowId}/executions/${run.id}`,

		/** A call to one of the API's tools with the owner's key, as a workflow's node makes it. */
		async tool(name, body) {
			const { keys } = await control('GET', '/keys');
			return answerOf(
				await fetch(`${sandboxUrl}/api/v1/tools/${name}`, {
					method: 'POST',
					headers: {
						authorization: `Bearer ${keys.owner}`,
						'content-type': 'application/json',
						'idempotency-key': `dev-try-${Date.now()}`,
					},
					body: JSON.stringify(body),
				}),
			);
		},

		/** Posts to an example's start webhook; n8n answers 404 until publishing has registered it. */
		async start(example) {
			const url = `${webhookBaseUrl}/webhook/${START_PATHS[example]}`;
			await until(
				`n8n to register POST ${url} (is the example active?)`,
				async () => {
					const response = await fetch(url, { method: 'POST' });
					if (response.ok) return true;
					const answer = `n8n answered ${response.status} ${await response.text()} to POST ${url}`;
					if (response.status !== 404) throw new Error(answer);
					return undefined;
				},
				20,
			);
		},

		/** The newest run id n8n knows (0 when none): runs after it are this command's. */
		async lastRunId() {
			const [newest] = await (await n8n()).recentExecutions(1);
			return Number(newest?.id ?? 0);
		},

		/** The first run after run `after` whose workflow `matches` (a test on its nodes), or undefined. */
		async runAfter(after, matches) {
			const api = await n8n();
			const runs = (await api.recentExecutions(20)).filter((run) => Number(run.id) > after);
			for (const run of runs.reverse()) if (await matches(run)) return run;
			return undefined;
		},

		/** Waits for run `id` to leave the running and waiting states; resolves to its summary. */
		async finished(id, what = `the end of run ${id}`) {
			const api = await n8n();
			return until(what, async () => {
				const run = await api.request('GET', `/executions/${id}`);
				return UNFINISHED.includes(run.status) ? undefined : run;
			});
		},
	};
}
