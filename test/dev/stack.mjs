// The local stack shared by `npm run dev` and `npm run test:e2e`: the built package, the sandbox and a
// real n8n loading the package, plus the owner's REST session. One place, so both start it the same way.
// The sandbox is TypeScript: callers run under vitest or register tsx before importing this module.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureN8n, N8N_MAJOR, N8N_VERSION, projectRoot } from '../support/n8nInstall.mjs';
import {
	freePort,
	logTail,
	OWNER,
	PACKAGE_NAME,
	startN8n,
	startRedis,
} from '../support/n8nProcess.mjs';
import { loginN8n } from '../support/n8nRestApi.mjs';
import { NO_POSTGRES_REASON, postgresBinDir, startPostgres } from '../support/postgres.mjs';
import { withHistoryInPrompt } from './historyInPrompt.mts';

export { OWNER };

export const CREDENTIAL_TYPE = 'messagingAutomationApi';
export const NODE_TYPES = {
	action: `${PACKAGE_NAME}.messagingAutomation`,
	trigger: `${PACKAGE_NAME}.messagingAutomationTrigger`,
	catchUp: `${PACKAGE_NAME}.messagingAutomationCatchUp`,
	memory: `${PACKAGE_NAME}.messagingAutomationChatMemory`,
};

const defaultLog = (line) => process.stderr.write(`[stack] ${line}\n`);

/** `npm run build`, so n8n always loads what the sources say now. */
export function buildPackage(log = defaultLog) {
	log('building the package (npm run build)');
	return new Promise((resolveBuild, reject) => {
		const child = spawn('npm', ['run', 'build'], {
			cwd: projectRoot,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		child.stdout.on('data', (chunk) => (output += chunk));
		child.stderr.on('data', (chunk) => (output += chunk));
		child.on('error', reject);
		child.on('close', (code) =>
			code === 0 ? resolveBuild() : reject(new Error(`npm run build failed:\n${output}`)),
		);
	});
}

/**
 * n8n starts even when a community package fails to load; its node types then simply do not exist.
 * Ask n8n which types it serves so a broken build fails here with n8n's own reason.
 */
async function assertPackageLoaded(n8n, api) {
	const missing = [];
	for (const name of Object.values(NODE_TYPES)) {
		const [description] = await api
			.request('POST', '/node-types', { nodeInfos: [{ name, version: 1 }] })
			.catch(() => [undefined]);
		// Descriptions carry the bare name; the package prefix is n8n's.
		if (!description?.name || !name.endsWith(`.${description.name}`)) missing.push(name);
	}
	if (missing.length > 0) {
		const reason = logTail(n8n.logFile, 400)
			.split('\n')
			.filter(
				(line) =>
					line.includes(PACKAGE_NAME) || /^(Error|TypeError|SyntaxError)(?!.*ENOTFOUND)/.test(line),
			)
			.slice(0, 12)
			.join('\n');
		throw new Error(
			`n8n started but did not load ${missing.join(', ')}. From its log (${n8n.logFile}):\n${reason}`,
		);
	}
}

/**
 * Queue mode: Redis, PostgreSQL (Debian's, when installed; else the shared SQLite file, which n8n
 * supports for tests only), the main process (editor, REST API, activation; production webhooks
 * switched off there), `webhooks` webhook processes that receive the deliveries and `workers` workers
 * that run the executions, all sharing one user folder (so one installed copy of the package).
 */
async function startQueueProcesses({
	userFolder,
	fresh,
	n8nPort,
	n8nEnv,
	log,
	stops,
	webhooks = 1,
	workers = 1,
}) {
	const redis = await startRedis({ folder: `${userFolder}-redis`, log });
	stops.push(() => redis.stop());
	let database = {};
	if (postgresBinDir()) {
		const postgres = await startPostgres({ folder: `${userFolder}-postgres`, log });
		stops.push(() => postgres.stop());
		database = postgres.env;
	} else {
		log(`queue mode on the shared SQLite file: ${NO_POSTGRES_REASON}`);
	}
	const webhookPorts = await Promise.all(Array.from({ length: webhooks }, () => freePort()));
	const env = {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		// Manual runs from the editor (and the e2e suite) then also go to the workers.
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		// The address registered with the service: the first webhook process (a load balancer in production).
		WEBHOOK_URL: `http://127.0.0.1:${webhookPorts[0]}/`,
		...database,
		...n8nEnv,
	};
	const n8n = await startN8n({
		userFolder,
		fresh,
		port: n8nPort,
		log,
		extraEnv: { ...env, N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
	});
	stops.push(() => n8n.stop());
	const roles = [
		...webhookPorts.map((port, index) => ({
			command: 'webhook',
			port,
			logName: `n8n-webhook-${index + 1}.log`,
		})),
		...Array.from({ length: workers }, (_, index) => ({
			command: 'worker',
			port: undefined,
			logName: `n8n-worker-${index + 1}.log`,
		})),
	];
	const handles = await Promise.all(
		roles.map(async ({ command, port, logName }) => {
			const handle = await startN8n({ userFolder, command, port, log, logName, extraEnv: env });
			stops.push(() => handle.stop());
			return { command, handle };
		}),
	);
	const webhookHandles = handles
		.filter((entry) => entry.command === 'webhook')
		.map((entry) => entry.handle);
	const workerHandles = handles
		.filter((entry) => entry.command === 'worker')
		.map((entry) => entry.handle);
	return {
		n8n,
		worker: workerHandles[0],
		webhook: webhookHandles[0],
		workers: workerHandles,
		webhooks: webhookHandles,
		database: postgresBinDir() ? 'postgres' : 'sqlite',
		// What another worker needs to join (a test replaces one it stopped).
		queueEnv: env,
		webhookBaseUrl: webhookHandles[0].url,
	};
}

/**
 * Builds, installs (first run), starts the sandbox and n8n (one process, or with `queue: true` the
 * queue-mode set). Resolves to `{ sandbox, n8n, worker?, webhook?, webhookBaseUrl, api, stop }`;
 * `stop()` ends everything this call started, also after a failure.
 */
export async function startStack({
	userFolder,
	fresh = false,
	n8nPort,
	sandboxOptions = {},
	build = true,
	queue = false,
	queueScale = {},
	n8nEnv = {},
	log = defaultLog,
}) {
	const stops = [];
	const stop = async () => {
		for (const stopOne of stops.reverse())
			await stopOne().catch((error) => log(`cleanup: ${error.message}`));
		stops.length = 0;
	};
	try {
		// Independent and slow: the n8n download (first run) and the TypeScript build overlap.
		await Promise.all([build ? buildPackage(log) : undefined, ensureN8n({ log })]);
		const { startSandbox } = await import('../sandbox/index.ts');
		const sandbox = await startSandbox(sandboxOptions);
		stops.push(() => sandbox.stop());
		log(`sandbox on ${sandbox.url}`);
		let processes;
		if (queue) {
			processes = await startQueueProcesses({
				userFolder,
				fresh,
				n8nPort,
				n8nEnv,
				log,
				stops,
				...queueScale,
			});
		} else {
			const n8n = await startN8n({ userFolder, fresh, port: n8nPort, extraEnv: n8nEnv, log });
			stops.push(() => n8n.stop());
			processes = { n8n, webhookBaseUrl: n8n.url };
		}
		const api = await loginN8n(processes.n8n.url, OWNER);
		await assertPackageLoaded(processes.n8n, api);
		return { sandbox, ...processes, api, n8nVersion: N8N_VERSION, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

/** Credential data pointing at the sandbox; `apiKey` defaults to the demo owner key (all scopes). */
export function sandboxCredentialData(sandbox, apiKey = sandbox.apiKey) {
	return { apiKey, baseUrl: sandbox.url, authScheme: 'bearer', headerName: 'X-API-Key' };
}

/** Creates the named credential, or points the existing one at this run's service; returns `{ id, name }`. */
export async function upsertCredential(api, name, data, type = CREDENTIAL_TYPE) {
	const existing = (await api.listCredentials()).find((credential) => credential.name === name);
	if (existing) {
		await api.updateCredential(existing.id, { name, type, data });
		return { id: existing.id, name };
	}
	const created = await api.createCredential({ name, type, data });
	return { id: created.id, name };
}

/** The node type of n8n's OpenAI Chat Model, which the AI examples point at the scripted model. */
export const OPENAI_MODEL_TYPE = '@n8n/n8n-nodes-langchain.lmChatOpenAi';

/**
 * Attaches the credential to every node of this package, the AI Agent tool variant included, and
 * `modelCredential` (an OpenAI credential) to chat model nodes: workflow files carry no credential ids.
 */
export function withCredential(workflow, credential, modelCredential) {
	const ours = new Set([...Object.values(NODE_TYPES), `${NODE_TYPES.action}Tool`]);
	const credentialsOf = (node) => {
		if (ours.has(node.type))
			return { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } };
		if (node.type === OPENAI_MODEL_TYPE && modelCredential)
			return { openAiApi: { id: modelCredential.id, name: modelCredential.name } };
		return undefined;
	};
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			const credentials = credentialsOf(node);
			return credentials ? { ...node, credentials } : node;
		}),
	};
}

/** Whether an example listens (our trigger, or a Webhook node that starts it from the terminal): `npm run dev` publishes those. */
export function listens(workflow) {
	return workflow.nodes.some((node) =>
		[NODE_TYPES.trigger, 'n8n-nodes-base.webhook'].includes(node.type),
	);
}

const WORKFLOWS_DIR = new URL('./workflows/', import.meta.url).pathname;
/**
 * The examples in the README's order, which `npm run dev` lists them in: the undelivered messages
 * before the examples that send most on QR, whose 5 sends a minute would hold its staff note back.
 */
const EXAMPLE_ORDER =
	'reply-bot ai-reply-bot undelivered-messages attachment-saver campaign-from-list refund-approval';
// Any other example last (-1 >>> 0 is the largest index).
const place = (name) => EXAMPLE_ORDER.split(' ').indexOf(name) >>> 0;

/**
 * The example workflows `npm run dev` imports (test/dev/workflows/*.json), by file name, for the n8n
 * being run (on 1.x, with no chat memory: see historyInPrompt.mts). Files the attachment saver
 * writes go to `filesDir`, which must be inside n8n's allowed folder.
 */
export function exampleWorkflows(filesDir) {
	const forThisN8n = N8N_MAJOR < 2 ? withHistoryInPrompt : (workflow) => workflow;
	return Object.fromEntries(
		readdirSync(WORKFLOWS_DIR)
			.filter((file) => file.endsWith('.json'))
			.map((file) => file.replace(/\.json$/, ''))
			.sort((a, b) => place(a) - place(b) || a.localeCompare(b))
			.map((file) => [
				file,
				forThisN8n(
					JSON.parse(
						readFileSync(join(WORKFLOWS_DIR, `${file}.json`), 'utf8').replaceAll(
							'__FILES_DIR__',
							filesDir,
						),
					),
				),
			]),
	);
}
