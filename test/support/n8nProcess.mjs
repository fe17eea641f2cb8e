// Starts a real n8n (the pinned install from n8nInstall.mjs) with this package loaded as an installed
// community package, an owner account provisioned from the environment, and quiet, offline-safe settings.
// Stopping always kills the whole process group, because n8n forks a task runner of its own.
import { spawn } from 'node:child_process';
import {
	closeSync,
	cpSync,
	existsSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	realpathSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { ensureN8n, installPaths, N8N_MAJOR, projectRoot } from './n8nInstall.mjs';

export const PACKAGE_NAME = 'n8n-nodes-messaging-automation';

/** Login of the instance owner; local-only instances, so a fixed, documented password is fine. */
export const OWNER = {
	email: 'owner@example.com',
	password: 'Sandbox-owner-1',
	firstName: 'Sandbox',
	lastName: 'Owner',
};

/** Whether 127.0.0.1:`port` can be listened on right now. */
function bindable(port) {
	return new Promise((resolvePort) => {
		const server = createServer();
		server.unref();
		server.once('error', () => resolvePort(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolvePort(true)));
	});
}

// Below Linux's ephemeral range (32768-60999): a port the OS hands out for listen(0) is also one it
// hands to outgoing connections, so in the seconds before n8n binds it (the main process starts
// first, its webhook processes after) any connection on the machine could take it, and the end-to-end
// suites run two at a time. A CI run failed so ("n8n's port 37633 is already in use").
const PORT_RANGE = { from: 20_000, to: 32_000 };
const handedOut = new Set();

/** A port free right now, outside the ephemeral range, never handed out before by this process. */
export async function freePort() {
	for (let attempt = 0; attempt < 200; attempt++) {
		const port = PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from));
		if (handedOut.has(port) || !(await bindable(port))) continue;
		handedOut.add(port);
		return port;
	}
	throw new Error(`no free port between ${PORT_RANGE.from} and ${PORT_RANGE.to}`);
}

/**
 * Copies the built package (package.json + dist) where n8n looks for installed community packages.
 * Nothing else is needed: the package has no runtime dependencies and its imports resolve from n8n.
 */
export function installPackageInto(userFolder) {
	const dist = join(projectRoot, 'dist');
	if (!existsSync(join(dist, 'nodes')))
		throw new Error(`No build in ${dist}: run \`npm run build\` first.`);
	const target = join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
	rmSync(target, { recursive: true, force: true });
	mkdirSync(target, { recursive: true });
	cpSync(join(projectRoot, 'package.json'), join(target, 'package.json'));
	cpSync(dist, join(target, 'dist'), { recursive: true });
	return target;
}

function ownerPasswordHash(n8nModules) {
	// n8n only accepts a pre-hashed owner password; hash with the same bcrypt library n8n verifies with.
	const bcrypt = createRequire(join(n8nModules, 'n8n', 'package.json'))('bcryptjs');
	return bcrypt.hashSync(OWNER.password, 10);
}

/** Settings that keep a local n8n offline-quiet, fast to start and reachable only on loopback. */
function n8nEnvironment({ userFolder, filesDir, port, brokerPort, n8nModules, extraEnv }) {
	const url = `http://127.0.0.1:${port}`;
	return {
		PATH: process.env.PATH,
		HOME: process.env.HOME,
		TZ: 'UTC',
		// Loading n8n's module tree dominates start-up; Node 24 can keep compiled code across runs.
		NODE_COMPILE_CACHE: join(installPaths().installDir, 'compile-cache'),
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: url,
		// The trigger registers this address with the sandbox, so it must be the loopback one. Not the newer
		// N8N_WEBHOOK_URL: that one also moves test webhooks, which only the main process serves in queue mode.
		WEBHOOK_URL: `${url}/`,
		// The default broker port is fixed (5679): two instances (dev and e2e) would collide on it.
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_ENCRYPTION_KEY: 'local-sandbox-encryption-key',
		N8N_SECURE_COOKIE: 'false',
		// n8n 2.x provisions the owner from the environment; 1.x has no such setting (see setUpOwner).
		...(N8N_MAJOR >= 2
			? {
					N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
					N8N_INSTANCE_OWNER_EMAIL: OWNER.email,
					N8N_INSTANCE_OWNER_FIRST_NAME: OWNER.firstName,
					N8N_INSTANCE_OWNER_LAST_NAME: OWNER.lastName,
					N8N_INSTANCE_OWNER_PASSWORD_HASH: ownerPasswordHash(n8nModules),
				}
			: {}),
		// Where the Read/Write Files node may write (the attachment saver example's target folder).
		N8N_RESTRICT_FILE_ACCESS_TO: filesDir,
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		// Online services n8n calls home to; unreachable here, and their errors only slow start-up.
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		...extraEnv,
	};
}

/** Kills the process groups (n8n, Redis) recorded under `folder`: the leftovers of a run that crashed. */
export function killRecordedGroups(folder) {
	let killed = 0;
	for (const file of readdirSync(folder, { recursive: true }).filter((name) =>
		String(name).endsWith('.pid'),
	)) {
		const pid = Number(readFileSync(join(folder, String(file)), 'utf8'));
		try {
			process.kill(-pid, 'SIGKILL');
			killed++;
		} catch {
			// Already gone.
		}
	}
	return killed;
}

/** Last lines of a log file, for error messages. */
export function logTail(file, lines = 40) {
	try {
		return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

const running = new Set();

function killGroup(child, signal) {
	try {
		process.kill(-child.pid, signal);
	} catch {
		// Already gone.
	}
}

// Last resort if the caller crashes before calling stop(): never leave an n8n behind.
process.once('exit', () => {
	for (const child of running) killGroup(child, 'SIGKILL');
});

/**
 * Spawns a long-running child in its own process group (so one signal reaches it and everything it
 * forks), logging to `logFile` and recording its pid next to it for a supervisor that outlives us.
 * `signal` asks it to stop (PostgreSQL's fast shutdown is SIGINT); SIGKILL follows after 15 s. With
 * `outlive`, it survives this process's exit (the .pid record lets the e2e runner's sweep end it).
 */
export function spawnSupervised(
	bin,
	args,
	{ env, cwd, logFile, signal = 'SIGTERM', outlive = false },
) {
	const out = openSync(logFile, 'w');
	const child = spawn(bin, args, { env, cwd, detached: true, stdio: ['ignore', out, out] });
	closeSync(out);
	if (!outlive) running.add(child);
	writeFileSync(`${logFile}.pid`, String(child.pid));
	const exited = new Promise((resolveExit) => {
		child.once('exit', (code, signal) => resolveExit({ code, signal }));
		// A binary that cannot be spawned never emits 'exit'.
		child.once('error', (error) => resolveExit({ code: null, signal: null, error }));
	});
	exited.then(() => running.delete(child));
	return { child, exited, stop: () => stopChild(child, exited, signal) };
}

/**
 * Starts one n8n process (`command` is `start` by default; `worker` and `webhook` for queue mode, which
 * share the main process's user folder and so its database and installed package).
 * Resolves when `/healthz/readiness` answers 200 (or, for workers, when the log says it is ready).
 */
export async function startN8n({
	userFolder,
	port,
	command = 'start',
	fresh = false,
	installPackage = command === 'start',
	extraEnv = {},
	readyTimeoutMs = 180_000,
	log = (line) => process.stderr.write(`[n8n] ${line}\n`),
	logName = `n8n-${command}.log`,
	outlive = false,
} = {}) {
	const { nodeBin, n8nBin, n8nModules } = await ensureN8n({ log });
	if (fresh) rmSync(userFolder, { recursive: true, force: true });
	mkdirSync(join(userFolder, 'files'), { recursive: true });
	// Its real path: n8n compares a file's resolved path with N8N_RESTRICT_FILE_ACCESS_TO as given, so a
	// .cache/ that is a symlink (one cache shared by several clones) would refuse every file.
	const filesDir = realpathSync(join(userFolder, 'files'));
	// Only the first process copies: n8n loads node classes lazily, so rewriting the files under a
	// running process could break it.
	if (installPackage) installPackageInto(userFolder);
	port ??= await freePort();
	const env = n8nEnvironment({
		userFolder,
		filesDir,
		port,
		brokerPort: await freePort(),
		n8nModules,
		extraEnv,
	});
	const logFile = join(userFolder, logName);
	const started = Date.now();
	const { child, exited, stop } = spawnSupervised(nodeBin, [n8nBin, command], {
		env,
		cwd: userFolder,
		logFile,
		outlive,
	});
	const handle = {
		url: `http://127.0.0.1:${port}`,
		port,
		userFolder,
		filesDir,
		logFile,
		pid: child.pid,
		env,
		exited,
		stop,
	};
	try {
		await waitUntilReady(handle, command, exited, readyTimeoutMs);
	} catch (error) {
		await handle.stop();
		throw error;
	}
	if (command === 'start') await setUpOwner(handle.url);
	handle.startSeconds = (Date.now() - started) / 1000;
	const what = command === 'start' ? 'n8n' : `n8n's ${command} process`;
	log(`${what} ready on ${handle.url} in ${handle.startSeconds.toFixed(1)} s (log: ${logFile})`);
	return handle;
}

/**
 * n8n 1.x: the owner is claimed once through the setup form's endpoint, as a person would on first
 * visit. An instance already set up (a reused dev folder) answers 400, which is fine.
 */
async function setUpOwner(url) {
	if (N8N_MAJOR >= 2) return;
	const response = await fetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(OWNER),
	});
	if (!response.ok && response.status !== 400)
		throw new Error(`n8n owner setup answered ${response.status}: ${await response.text()}`);
}

/** A throwaway Redis for queue mode (Debian's `redis-server`): loopback only, nothing persisted. */
export async function startRedis({
	folder,
	log = (line) => process.stderr.write(`[redis] ${line}\n`),
}) {
	mkdirSync(folder, { recursive: true });
	const port = await freePort();
	const args = [
		'--port',
		String(port),
		'--bind',
		'127.0.0.1',
		'--save',
		'',
		'--appendonly',
		'no',
		'--dir',
		folder,
	];
	const logFile = join(folder, 'redis.log');
	const { exited, stop } = spawnSupervised('redis-server', args, {
		env: process.env,
		cwd: folder,
		logFile,
	});
	// true once it answers PING, false if it never does, the exit record if it dies first.
	const outcome = await Promise.race([waitForPong(port), exited]);
	if (outcome !== true) {
		await stop();
		const reason = outcome?.error
			? `${outcome.error.message}; install it with apt-get install redis-server`
			: logTail(logFile);
		throw new Error(`redis-server could not start: ${reason}`);
	}
	log(`redis on 127.0.0.1:${port}`);
	return { host: '127.0.0.1', port, logFile, stop };
}

async function waitForPong(port) {
	for (let attempt = 0; attempt < 100; attempt++) {
		const pong = await new Promise((resolvePong) => {
			const socket = connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
			socket.setTimeout(1000, () => socket.destroy());
			socket.once('data', (data) => {
				socket.destroy();
				resolvePong(String(data).startsWith('+PONG'));
			});
			socket.once('error', () => resolvePong(false));
			socket.once('close', () => resolvePong(false));
		});
		if (pong) return true;
		await new Promise((r) => setTimeout(r, 100));
	}
	return false;
}

async function stopChild(child, exited, signal = 'SIGTERM') {
	if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
	killGroup(child, signal);
	const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 15_000);
	await exited;
	clearTimeout(timer);
	// The runner may outlive its parent by a moment; the group id still addresses it.
	killGroup(child, 'SIGKILL');
}

async function waitUntilReady(handle, command, exited, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	let exit;
	exited.then((result) => {
		exit = result;
	});
	while (Date.now() < deadline) {
		if (exit) {
			throw new Error(
				`n8n ${command} exited during start-up (code ${exit.code}, signal ${exit.signal}). Last log lines:\n${logTail(handle.logFile)}`,
			);
		}
		if (await isReady(handle, command)) return;
		await new Promise((r) => setTimeout(r, 500));
	}
	throw new Error(
		`n8n ${command} was not ready after ${timeoutMs / 1000} s. Last log lines:\n${logTail(handle.logFile)}`,
	);
}

async function isReady(handle, command) {
	if (command === 'worker') return /n8n worker is now ready/i.test(logTail(handle.logFile, 200));
	// n8n 1.x reports readiness before its REST routes are mounted: the main process must answer both.
	const paths =
		command === 'start' ? ['/healthz/readiness', '/rest/settings'] : ['/healthz/readiness'];
	for (const path of paths) {
		try {
			const response = await fetch(`${handle.url}${path}`, { signal: AbortSignal.timeout(2000) });
			if (!response.ok) return false;
		} catch {
			return false;
		}
	}
	return true;
}
