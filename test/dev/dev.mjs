// `npm run dev`: build, sandbox, a real n8n with this package, a credential and the example workflows,
// ready to use in the browser with no manual step. Ctrl-C (or SIGTERM to it or to the `npm` running it)
// stops everything it started.
// Options: --fresh (forget the previous dev instance's workflows and executions); --queue (n8n in queue
// mode: Redis from Debian's redis-server, PostgreSQL when Debian's is installed, main + webhook + worker
// processes, as in production scale-out); --n8n <version> (2.40.7 by default, 2.41.1 (or 2.41.x), or 1.x / 1.123.x).
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
	options: {
		fresh: { type: 'boolean', default: false },
		queue: { type: 'boolean', default: false },
		n8n: { type: 'string' },
	},
});
// n8nInstall reads the version when it is first imported, so it is set before any import of it.
if (values.n8n) process.env.TEST_N8N_VERSION = values.n8n;
const { cacheRoot, DEFAULT_N8N_VERSION, N8N_VERSION } = await import('../support/n8nInstall.mjs');
const { freePort, OWNER } = await import('../support/n8nProcess.mjs');

// The sandbox is TypeScript; this script runs on plain Node. tsx's main entry hooks both loaders
// (ESM and CommonJS, which the sandbox's .ts files are in this package), like `node --import tsx`.
await import('tsx');
const {
	exampleWorkflows,
	listens,
	sandboxCredentialData,
	startStack,
	upsertCredential,
	withCredential,
	NODE_TYPES,
} = await import('./stack.mjs');
const { startScriptedModel } = await import('../e2e/support/scriptedModel.mts');
const { replyBotPlan } = await import('./replyBotModel.mts');
const { CREDENTIAL_NAME, devBanner, STOPS, tryItCommands } = await import('./tryIt.mjs');

const MODEL_CREDENTIAL_NAME = 'Scripted model (sandbox)';
// One instance per n8n version: a database migrated by 2.x cannot be opened by 1.x.
const USER_FOLDER = join(
	cacheRoot,
	N8N_VERSION === DEFAULT_N8N_VERSION ? 'dev-n8n' : `dev-n8n-${N8N_VERSION}`,
);
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
 * and publishes the workflows that listen (trigger or webhook) so they do without a click.
 */
async function importExamples(api, credential, filesDir, modelCredential) {
	const existing = new Map(
		(await api.listWorkflows()).map((workflow) => [workflow.name, workflow]),
	);
	const lines = [];
	for (const example of Object.values(exampleWorkflows(filesDir))) {
		const workflow =
			existing.get(example.name) ??
			(await api.createWorkflow(withCredential(example, credential, modelCredential)));
		const active = listens(example);
		if (active && !workflow.active) await api.activateWorkflow(workflow.id);
		lines.push({ name: example.name, active, link: `${api.baseUrl}/workflow/${workflow.id}` });
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

/**
 * `npm run dev` runs this under `sh -c`; SIGTERM to npm ends npm and the shell but never reaches us,
 * and we are re-parented. Noticing that is the only sign, so the parent id is checked twice a second.
 */
function watchParent(onExit) {
	const parent = process.ppid;
	const timer = setInterval(() => {
		if (process.ppid === parent) return;
		clearInterval(timer);
		onExit();
	}, 500);
	timer.unref();
}

async function main() {
	const [n8nPort, sandboxPort] = await Promise.all([
		portFor(Number(process.env.N8N_PORT ?? 5678)),
		portFor(Number(process.env.SANDBOX_PORT ?? 4010)),
	]);
	let stack;
	let model;
	let stopping = false;
	// Registered before anything starts: a stop during the first run's install or n8n's start-up exits,
	// and n8nProcess's exit hook kills the processes already started.
	const shutdown = async (reason) => {
		if (stopping) return;
		stopping = true;
		log(`${reason}: stopping ${STOPS}`);
		await stack?.stop();
		await model?.stop();
		process.exit(0);
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
		process.on(signal, () => void shutdown(signal));
	watchParent(() => void shutdown('npm exited'));
	stack = await startStack({
		userFolder: USER_FOLDER,
		fresh: values.fresh,
		queue: values.queue,
		n8nPort,
		sandboxOptions: { port: sandboxPort, apiKey: process.env.SANDBOX_API_KEY || undefined },
		log,
	});
	try {
		const { sandbox, n8n, api, worker, webhook } = stack;
		const credential = await upsertCredential(api, CREDENTIAL_NAME, sandboxCredentialData(sandbox));
		// The AI reply bot's chat model: an OpenAI-compatible server on 127.0.0.1 that follows a script.
		model = await startScriptedModel((prompt, _api, earlier) => replyBotPlan(prompt, earlier));
		const modelCredential = await upsertCredential(
			api,
			MODEL_CREDENTIAL_NAME,
			{ apiKey: 'sk-scripted-model', url: model.url, header: false },
			'openAiApi',
		);
		await republishTriggers(api);
		const workflows = await importExamples(api, credential, n8n.filesDir, modelCredential);
		const run = tryItCommands({
			sandboxUrl: sandbox.url,
			n8nUrl: n8n.url,
			webhookBaseUrl: stack.webhookBaseUrl,
		});
		process.stdout.write(
			devBanner({
				n8nUrl: n8n.url,
				login: OWNER,
				sandbox,
				queue:
					worker &&
					`webhooks served by ${webhook.url}, executions run by the worker (log ${worker.logFile})`,
				credential: CREDENTIAL_NAME,
				workflows,
				run,
			}),
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
