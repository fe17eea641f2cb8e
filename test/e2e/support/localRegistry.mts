// A local npm registry for the install-route tests: Verdaccio on 127.0.0.1 with no uplink, so it serves
// only what is published to it, storage inside the run's folder in .cache/. The built package is packed
// with `npm pack` and published with `npm publish`, as a release would be.
//
// Verdaccio is installed once into .cache/verdaccio-<version>/, like n8n, not as a devDependency: one of
// its dependencies asks for `node-fetch@cjs`, a dist-tag the registry mirror used here lacks, and only an
// npm `overrides` entry gets past that, which n8n's community-package lint forbids in our package.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, logTail } from '../../support/n8nProcess.mjs';
import { cacheRoot, installPaths, projectRoot } from '../../support/n8nInstall.mjs';
import { npmWithProgress } from '../../support/npmProgress.mjs';

export interface LocalRegistry {
	url: string;
	logFile: string;
	/** `npm pack` of the built package, then `npm publish` of that tarball here. Resolves to its version. */
	publishPackage(): Promise<string>;
	stop(): Promise<void>;
}

const VERDACCIO_VERSION = '6.10.4';
const VERDACCIO_DIR = join(cacheRoot, `verdaccio-${VERDACCIO_VERSION}`);
const VERDACCIO = join(VERDACCIO_DIR, 'node_modules', 'verdaccio', 'bin', 'verdaccio');

/** Installs the pinned Verdaccio into .cache/ once (about 20 s); later runs find it there. */
async function ensureVerdaccio(): Promise<void> {
	const marker = join(VERDACCIO_DIR, 'complete');
	if (existsSync(marker)) return;
	mkdirSync(VERDACCIO_DIR, { recursive: true });
	const pkg = {
		name: 'cache-verdaccio',
		private: true,
		dependencies: { verdaccio: VERDACCIO_VERSION },
		overrides: { 'verdaccio-audit': { 'node-fetch': '2.7.0' } },
	};
	writeFileSync(join(VERDACCIO_DIR, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
	const log = (line: string) => process.stderr.write(`[verdaccio-install] ${line}\n`);
	await npmWithProgress(['install', '--ignore-scripts', '--omit=dev', '--no-package-lock'], {
		cwd: VERDACCIO_DIR,
		log,
		label: 'verdaccio',
	});
	writeFileSync(marker, VERDACCIO_VERSION);
}

/** Verdaccio's configuration: loopback only, no uplinks, publishing for a registered user. */
function config(folder: string, port: number): string {
	return [
		`storage: ${join(folder, 'storage')}`,
		'auth:',
		'  htpasswd:',
		`    file: ${join(folder, 'htpasswd')}`,
		'    max_users: 1',
		'uplinks: {}',
		'packages:',
		"  '**':",
		'    access: $all',
		'    publish: $authenticated',
		'    unpublish: $authenticated',
		'middlewares:',
		'  audit:',
		'    enabled: false',
		'web:',
		'  enable: false',
		'log: { type: stdout, format: pretty, level: http }',
		`listen: 127.0.0.1:${port}`,
		'',
	].join('\n');
}

/** Runs a command to completion; rejects with its output when it fails. */
function run(
	command: string,
	args: string[],
	cwd: string,
	env: NodeJS.ProcessEnv,
): Promise<string> {
	return new Promise((resolveRun, reject) => {
		const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		child.stdout.on('data', (chunk) => (output += chunk));
		child.stderr.on('data', (chunk) => (output += chunk));
		child.on('error', reject);
		child.on('close', (code) =>
			code === 0
				? resolveRun(output)
				: reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`)),
		);
	});
}

/** npm with the project's settings left out (its `ignore-scripts` and registry), aimed at `url`. */
function npmEnv(url: string, token: string): NodeJS.ProcessEnv {
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
	);
	const host = url.replace(/^https?:/, '');
	return {
		...env,
		npm_config_registry: `${url}/`,
		[`npm_config_${host}/:_authToken`]: token,
		npm_config_update_notifier: 'false',
	};
}

async function waitForPing(url: string, child: ChildProcess, logFile: string): Promise<void> {
	for (let attempt = 0; attempt < 120; attempt++) {
		if (child.exitCode !== null)
			throw new Error(`verdaccio exited (${child.exitCode}):\n${logTail(logFile)}`);
		const ok = await fetch(`${url}/-/ping`).then(
			(response) => response.ok,
			() => false,
		);
		if (ok) return;
		await new Promise((resolveWait) => setTimeout(resolveWait, 250));
	}
	throw new Error(`verdaccio did not answer at ${url}:\n${logTail(logFile)}`);
}

/** Registers the publishing user (as `npm adduser` does) and returns its token. */
async function addUser(url: string): Promise<string> {
	const name = 'release';
	const response = await fetch(`${url}/-/user/org.couchdb.user:${name}`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ name, password: 'local-registry-password', type: 'user', roles: [] }),
	});
	const body = (await response.json()) as { token?: string };
	if (!response.ok || !body.token)
		throw new Error(`verdaccio refused the user: ${response.status} ${JSON.stringify(body)}`);
	return body.token;
}

/** Starts a fresh Verdaccio in `folder` (with the pinned n8n's Node: Verdaccio 6 needs Node 22+). */
export async function startLocalRegistry(folder: string): Promise<LocalRegistry> {
	await ensureVerdaccio();
	rmSync(folder, { recursive: true, force: true });
	mkdirSync(folder, { recursive: true });
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const configFile = join(folder, 'config.yaml');
	writeFileSync(configFile, config(folder, port));
	const logFile = join(folder, 'verdaccio.log');
	const out = openSync(logFile, 'w');
	const child = spawn(installPaths().nodeBin, [VERDACCIO, '--config', configFile], {
		cwd: folder,
		detached: true,
		stdio: ['ignore', out, out],
	});
	closeSync(out);
	writeFileSync(`${logFile}.pid`, String(child.pid));
	const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
	const stop = async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		process.kill(-child.pid!, 'SIGTERM');
		await exited;
	};
	try {
		await waitForPing(url, child, logFile);
		const token = await addUser(url);
		const publishPackage = async () => {
			const env = npmEnv(url, token);
			const tarball = (
				await run('npm', ['pack', '--pack-destination', folder, '--silent'], projectRoot, env)
			)
				.trim()
				.split('\n')
				.at(-1)!;
			await run('npm', ['publish', join(folder, tarball), '--tag', 'latest'], folder, env);
			const { version } = (await (
				await fetch(`${url}/n8n-nodes-messaging-automation/latest`)
			).json()) as { version: string };
			return version;
		};
		return { url, logFile, publishPackage, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
