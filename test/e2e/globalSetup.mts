import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { OWNER, startStack } from '../dev/stack.mjs';
import type { E2eContext } from './support/context.mjs';

/**
 * Builds the package and starts the sandbox and a fresh real n8n once for the whole suite (with
 * E2E_MODE=queue: Redis, PostgreSQL, main, two webhook processes and two workers). The tests reach them over HTTP only:
 * n8n's REST API and webhooks, the sandbox's API and control API.
 */
export default async function setup(project: TestProject) {
	const runDir =
		process.env.E2E_RUN_DIR ?? join(process.cwd(), '.cache', 'e2e', `run-${process.pid}`);
	const queue = process.env.E2E_MODE === 'queue';
	const stack = await startStack({
		userFolder: join(runDir, queue ? 'n8n-queue' : 'n8n'),
		fresh: true,
		// CI builds once before its suites run side by side; two builds rewriting dist/ while the other
		// suite's n8n loads it would race.
		build: process.env.E2E_BUILT !== '1',
		queue,
		// As production scales out: two webhook processes behind one address, two workers.
		queueScale: { webhooks: 2, workers: 2 },
		log: (line) => process.stderr.write(`[e2e${queue ? ' queue' : ''}] ${line}\n`),
	});
	const context: E2eContext = {
		mode: queue ? 'queue' : 'regular',
		n8nVersion: stack.n8nVersion,
		n8nUrl: stack.n8n.url,
		webhookBaseUrl: stack.webhookBaseUrl,
		workerLog: stack.worker?.logFile,
		workerLogs: stack.workers?.map((worker) => worker.logFile),
		workerPids: stack.workers?.map((worker) => worker.pid),
		webhookBaseUrls: stack.webhooks?.map((webhook) => webhook.url) ?? [stack.webhookBaseUrl],
		webhookPids: stack.webhooks?.map((webhook) => webhook.pid),
		database: stack.database ?? 'sqlite',
		queueEnv: stack.queueEnv,
		userFolder: stack.n8n.userFolder,
		n8nLog: stack.n8n.logFile,
		filesDir: stack.n8n.filesDir,
		n8nStartSeconds: stack.n8n.startSeconds,
		owner: { email: OWNER.email, password: OWNER.password },
		sandboxUrl: stack.sandbox.url,
		keys: { ...stack.sandbox.keys, owner: stack.sandbox.apiKey },
	};
	project.provide('e2e', context);
	return async () => {
		await reportRefusals(stack.sandbox.url, queue);
		await stack.stop();
	};
}

/**
 * The suite's calls the sandbox refused with 429, by tool: a case that waits out the service's
 * Retry-After in real time costs the whole suite that time, so a new one should be seen.
 */
async function reportRefusals(sandboxUrl: string, queue: boolean) {
	try {
		const response = await fetch(`${sandboxUrl}/__sandbox/calls`);
		const { calls } = (await response.json()) as {
			calls: Array<{ tool?: string; status?: number; errorCode?: string }>;
		};
		const refused = new Map<string, number>();
		for (const call of calls)
			if (call.status === 429) {
				const key = `${call.tool ?? '?'} ${call.errorCode ?? ''}`.trim();
				refused.set(key, (refused.get(key) ?? 0) + 1);
			}
		process.stderr.write(
			`[e2e${queue ? ' queue' : ''}] calls the sandbox refused with 429: ${
				refused.size === 0 ? 'none' : JSON.stringify(Object.fromEntries(refused))
			} (of ${calls.length})\n`,
		);
	} catch (error) {
		process.stderr.write(`[e2e] could not count the sandbox's 429s: ${String(error)}\n`);
	}
}
