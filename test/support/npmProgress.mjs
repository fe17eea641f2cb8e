// Runs npm for the cached n8n installs and reports real progress. npm prints nothing useful off a TTY,
// and its `http` log level only shows fetches: after the last one it spends minutes writing some
// 1,500 packages to disk in silence. So progress has three sources: packument fetches (resolving),
// tarball fetches (downloading) and the packages already present under node_modules (unpacking).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const HEARTBEAT_MS = 10_000;

/**
 * The environment without what an enclosing `npm run` exports (npm_config_*, npm_package_*, ...):
 * the project's `ignore-scripts=true` would otherwise silently turn `npm rebuild sqlite3` into a no-op.
 */
export function outsideNpm(env) {
	return Object.fromEntries(
		Object.entries(env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
	);
}

/**
 * Packages unpacked under `dir`/node_modules (one level of scopes, nested node_modules folders ignored).
 * npm creates every folder first and fills it later, so only a folder with its package.json counts.
 */
export function countInstalled(dir) {
	const root = join(dir, 'node_modules');
	const folders = [];
	for (const name of list(root)) {
		if (name.startsWith('.')) continue;
		if (name.startsWith('@'))
			folders.push(...list(join(root, name)).map((inner) => join(root, name, inner)));
		else folders.push(join(root, name));
	}
	return folders.filter((folder) => existsSync(join(folder, 'package.json'))).length;
}

function list(folder) {
	try {
		return readdirSync(folder);
	} catch {
		return [];
	}
}

/**
 * One line saying where npm is: resolving, downloading or unpacking, with counts. The total is the
 * count a previous install of the same thing ended with (`expected`): the descriptions npm fetches
 * include optional packages for other platforms it never installs, so they overstate it by a sixth.
 */
function describe({ packuments, tarballs, installed, phase, expected }) {
	if (phase === 'build') return 'compiling';
	if (tarballs === 0 && installed === 0)
		return `resolving the dependency tree, ${packuments} package descriptions fetched`;
	const of = expected ? ` of about ${expected.toLocaleString('en-US')}` : '';
	return `${installed}${of} packages unpacked (${tarballs} downloaded, the rest from npm's cache)`;
}

/**
 * Runs `npm <args>` in `cwd` with `env` added to a clean environment, logging a progress line every
 * 10 s. `phase: 'build'` (a native rebuild) reports time only; `expected` is the package count the
 * install is known to end with (countInstalled's measure). Rejects with npm's last output on failure.
 */
export function npmWithProgress(args, { cwd, env, log, label, phase = 'install', expected }) {
	const started = Date.now();
	const seconds = () => Math.round((Date.now() - started) / 1000);
	log(`${label}: npm ${args.join(' ')}`);
	const child = spawn('npm', args, {
		cwd,
		env: {
			...outsideNpm(process.env),
			npm_config_audit: 'false',
			npm_config_fund: 'false',
			npm_config_update_notifier: 'false',
			// One line per registry fetch: the fetch counts below come from these.
			npm_config_loglevel: 'http',
			...env,
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	const counts = { packuments: 0, tarballs: 0, installed: 0, phase, expected };
	const keep = (chunk) => {
		const text = String(chunk);
		for (const line of text.split('\n')) {
			if (!line.includes('http fetch')) continue;
			if (line.includes('/-/')) counts.tarballs++;
			else counts.packuments++;
		}
		output = (output + text).slice(-8000);
	};
	child.stdout.on('data', keep);
	child.stderr.on('data', keep);
	const heartbeat = setInterval(() => {
		if (phase !== 'build') counts.installed = countInstalled(cwd);
		log(`${label}: ${seconds()} s, ${describe(counts)}`);
	}, HEARTBEAT_MS);
	return new Promise((resolvePromise, reject) => {
		child.on('error', (error) => {
			clearInterval(heartbeat);
			reject(error);
		});
		child.on('close', (code) => {
			clearInterval(heartbeat);
			if (code === 0) {
				log(
					`${label}: finished in ${seconds()} s${phase === 'build' ? '' : `, ${countInstalled(cwd)} packages`}`,
				);
				resolvePromise(seconds());
			} else {
				reject(new Error(`${label}: npm ${args.join(' ')} exited with ${code}\n${output}`));
			}
		});
	});
}
