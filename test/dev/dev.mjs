// `npm run dev`: build, sandbox, a real n8n with this package, a credential and the example workflows,
// ready to use in the browser with no manual step. Ctrl-C stops everything it started.
// Options: --fresh (forget the previous dev instance's workflows and executions); --queue (n8n in queue
// mode: Redis from Debian's redis-server, main + webhook + worker processes, as in production scale-out).
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cacheRoot } from '../support/n8nInstall.mjs';
import { freePort, OWNER } from '../support/n8nProcess.mjs';

// The sandbox is TypeScript; this script runs on plain Node. tsx's main entry hooks both loaders
// (ESM and CommonJS, which the sandbox's .ts files are in this package), like `node --import tsx`.
await import('tsx');
const { exampleWorkflows, sandboxCredentialData, startStack, upsertCredential, withCredential, NODE_TYPES } = await import('./stack.mjs');

const CREDENTIAL_NAME = 'Messaging Automation (sandbox)';
const USER_FOLDER = join(cacheRoot, 'dev-n8n');
const log = (line) => process.stdout.write(`[dev] ${line}\n`);

/** The preferred port when it is free (stable bookmarks), any free port otherwise. */
async function portFor(preferred) {
	const probe = await freePort();
	const { createServer } = await import('node:net');
	return await new Promise((resolvePort) => {
		const server = createServer();
		server.once('error', () => resolvePort(probe));
		server.listen(preferred, '127.0.0.1', () => server.close(() => resolvePort(preferred)));
	});
}

/**
 * Imports each example once (by name) so edits made in the editor survive the next `npm run dev`,
 * and publishes the trigger workflows so they listen without a click.
 */
async function importExamples(api, credential, filesDir) {
	const existing = new Map((await api.listWorkflows()).map((workflow) => [workflow.name, workflow]));
	const lines = [];
	for (const example of Object.values(exampleWorkflows(filesDir))) {
		const workflow = existing.get(example.name) ?? (await api.createWorkflow(withCredential(example, credential)));
		const hasTrigger = example.nodes.some((node) => node.type === NODE_TYPES.trigger);
		if (hasTrigger && !workflow.active) await api.activateWorkflow(workflow.id);
		lines.push(`${example.name}${hasTrigger ? ' (active)' : ''}: ${api.baseUrl}/workflow/${workflow.id}`);
	}
	return lines;
}

/**
 * n8n does not re-register webhooks when it restarts with active workflows (it assumes the remote
 * side kept them), but each run's sandbox starts empty. Re-publishing every active workflow with our
 * trigger makes it register with the sandbox of this run.
 */
async function republishTriggers(api) {
	for (const { id, active } of await api.listWorkflows()) {
		if (!active) continue;
		const workflow = await api.getWorkflow(id);
		if (!workflow.nodes.some((node) => node.type === NODE_TYPES.trigger)) continue;
		await api.deactivateWorkflow(id);
		await api.activateWorkflow(id);
	}
}

async function main() {
	const { values } = parseArgs({ options: { fresh: { type: 'boolean', default: false }, queue: { type: 'boolean', default: false } } });
	const [n8nPort, sandboxPort] = await Promise.all([
		portFor(Number(process.env.N8N_PORT ?? 5678)),
		portFor(Number(process.env.SANDBOX_PORT ?? 4010)),
	]);
	const stack = await startStack({
		userFolder: USER_FOLDER,
		fresh: values.fresh,
		queue: values.queue,
		n8nPort,
		sandboxOptions: { port: sandboxPort, apiKey: process.env.SANDBOX_API_KEY || undefined },
		log,
	});
	let stopping = false;
	const shutdown = async (signal) => {
		if (stopping) return;
		stopping = true;
		log(`${signal}: stopping n8n and the sandbox`);
		await stack.stop();
		process.exit(0);
	};
	process.on('SIGINT', () => void shutdown('SIGINT'));
	process.on('SIGTERM', () => void shutdown('SIGTERM'));
	try {
		const { sandbox, n8n, api, worker, webhook } = stack;
		const credential = await upsertCredential(api, CREDENTIAL_NAME, sandboxCredentialData(sandbox));
		await republishTriggers(api);
		const workflows = await importExamples(api, credential, n8n.filesDir);
		const inject = `curl -s -X POST ${sandbox.url}/__sandbox/inject/message -H 'content-type: application/json' -d '{"from":{"phone":"4915112345678","name":"Alice"},"text":"Hello!"}'`;
		process.stdout.write(
			[
				'',
				`n8n editor:   ${n8n.url}`,
				`login:        ${OWNER.email} / ${OWNER.password}`,
				`sandbox:      ${sandbox.url}  (API key ${sandbox.apiKey}, control API ${sandbox.url}/__sandbox/state)`,
				...(worker ? [`queue mode:   webhooks served by ${webhook.url}, executions run by the worker (log ${worker.logFile})`] : []),
				`credential:   "${CREDENTIAL_NAME}"`,
				'workflows:',
				...workflows.map((line) => `  - ${line}`),
				'',
				'Send the reply bot a message (it answers through the sandbox):',
				`  ${inject}`,
				`Then see what was sent: curl -s ${sandbox.url}/__sandbox/sends`,
				`Files saved by the attachment saver land in ${n8n.filesDir}.`,
				'',
				'Ctrl-C stops n8n and the sandbox.',
				'',
			].join('\n'),
		);
	} catch (error) {
		await stack.stop();
		throw error;
	}
}

main().catch((error) => {
	process.stderr.write(`[dev] ${error.stack ?? error}\n`);
	process.exit(1);
});
