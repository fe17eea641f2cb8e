// Runs npm for the cached n8n installs and reports real progress. npm prints nothing useful off a TTY,
// and its `http` log level only shows fetches: after the last one it reads its cache and writes some
// 1,500 packages to disk in silence, and a package's folder is complete only near its end (measured:
// 20 s with no count moving). So progress has four sources: package descriptions fetched (resolving),
// tarballs fetched or found in npm's cache, the bytes npm has read and written (/proc/<pid>/io), and
// the packages complete under node_modules. Installs that run side by side share one progress line.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
 * What a process has done so far, from Linux's /proc: bytes read and written (`/proc/<pid>/io`) and
 * CPU seconds (`/proc/<pid>/stat`, in clock ticks of 1/100 s); undefined where /proc has no such file.
 */
export function processWork(pid) {
	try {
		const io = readFileSync(`/proc/${pid}/io`, 'utf8');
		const field = (name) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(io)?.[1]);
		// The fields after the command name, which is in parentheses and may hold spaces.
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const [utime, stime] = stat
			.slice(stat.lastIndexOf(')') + 2)
			.split(' ')
			.slice(11, 13);
		const work = {
			read: field('rchar'),
			written: field('wchar'),
			cpuSeconds: (Number(utime) + Number(stime)) / 100,
		};
		return Object.values(work).every(Number.isFinite) ? work : undefined;
	} catch {
		return undefined;
	}
}

const count = (n) => n.toLocaleString('en-US');
/** `1 package`, `2,344 packages`. */
const packagesCount = (n) => `${count(n)} package${n === 1 ? '' : 's'}`;
const megabytes = (bytes) => `${count(Math.round(bytes / 1e6))} MB`;

/**
 * Where one npm run is, with figures that move while it works: resolving (descriptions fetched), then
 * for the packages found: bytes read (npm's cache), bytes written, packages complete and npm's CPU
 * time, which alone moves while npm decompresses in memory. `expected` is the package count a
 * previous install of the same thing ended with (countInstalled's measure): the descriptions npm
 * fetches include optional packages for other platforms it never installs, so they overstate it.
 */
export function describeJob({ phase, packuments, tarballs, cached, installed, work, expected }) {
	if (phase === 'build') return 'compiling';
	const packages = tarballs + cached;
	if (packages === 0) return `resolving, ${count(packuments)} package descriptions fetched`;
	const of = expected ? ` of about ${count(expected)}` : '';
	const done = work
		? `${megabytes(work.read)} read, ${megabytes(work.written)} written, ${count(installed)}${of} complete (npm: ${Math.round(work.cpuSeconds)} s of CPU)`
		: `${count(installed)}${of} complete`;
	return `unpacking ${packagesCount(packages)} (${count(tarballs)} downloaded, ${count(cached)} from npm's cache): ${done}`;
}

/** The one progress line for every npm run in flight, oldest first: `label s: where it is; …`. */
export function progressLine(jobs, now) {
	return jobs
		.map(
			(job) =>
				`${job.label} ${Math.round((now - job.started) / 1000)} s: ${describeJob(job.counts)}`,
		)
		.join('; ');
}

/** npm runs in flight; one heartbeat reports them all, so their lines never interleave. */
const running = new Set();
let heartbeat;

function track(job) {
	running.add(job);
	heartbeat ??= setInterval(() => {
		const jobs = [...running];
		for (const job of jobs) job.refresh();
		jobs[0].log(progressLine(jobs, Date.now()));
	}, HEARTBEAT_MS);
	return () => {
		running.delete(job);
		if (running.size > 0) return;
		clearInterval(heartbeat);
		heartbeat = undefined;
	};
}

/**
 * Runs `npm <args>` in `cwd` with `env` added to a clean environment, reporting progress every 10 s
 * on one line shared with any other npm run in flight. `phase: 'build'` (a native rebuild) reports
 * time only; `expected` is the package count the install is known to end with (countInstalled's
 * measure). Rejects with npm's last output on failure.
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
			// One line per registry fetch or cache hit: the counts below come from these.
			npm_config_loglevel: 'http',
			...env,
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	const counts = { phase, packuments: 0, tarballs: 0, cached: 0, installed: 0, expected };
	const keep = (chunk) => {
		const text = String(chunk);
		for (const line of text.split('\n')) {
			if (line.includes('http cache') && line.includes('/-/')) counts.cached++;
			else if (!line.includes('http fetch')) continue;
			else if (line.includes('/-/')) counts.tarballs++;
			else counts.packuments++;
		}
		output = (output + text).slice(-8000);
	};
	child.stdout.on('data', keep);
	child.stderr.on('data', keep);
	const untrack = track({
		label,
		log,
		started,
		counts,
		refresh() {
			if (phase === 'build') return;
			counts.installed = countInstalled(cwd);
			counts.work = processWork(child.pid);
		},
	});
	return new Promise((resolvePromise, reject) => {
		child.on('error', (error) => {
			untrack();
			reject(error);
		});
		child.on('close', (code) => {
			untrack();
			if (code === 0) {
				log(
					`${label}: finished in ${seconds()} s${phase === 'build' ? '' : `, ${packagesCount(countInstalled(cwd))}`}`,
				);
				resolvePromise(seconds());
			} else {
				reject(new Error(`${label}: npm ${args.join(' ')} exited with ${code}\n${output}`));
			}
		});
	});
}
