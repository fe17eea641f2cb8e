#!/usr/bin/env node
// `npm run test:e2e`: the real-n8n suite, once with a single n8n process and once in queue mode (Redis,
// main, webhook and worker processes) when Debian's redis-server is installed. Each variant runs in a
// child vitest; afterwards a sweep kills any process it left behind (vitest killed or crashed), and
// one closing `N passed, N failed` line sums both. E2E_MODE=regular or E2E_MODE=queue runs one variant.
// `--n8n <version>` picks the n8n (2.40.7 by default; 2.41.x, 1.x, 1.123.x or an exact version; a comma-separated
// list runs the suite once per version, each installed once into .cache/). On the default n8n every case runs;
// on another only the per-line selection, the cases tagged `every-line` (at least one per feature), unless
// `--all` is given (`npm run test:e2e:all`: every case on every line in both modes, before a release).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
	cacheRoot,
	DEFAULT_N8N_VERSION,
	projectRoot,
	resolveN8nVersion,
} from '../support/n8nInstall.mjs';
import { killRecordedGroups } from '../support/n8nProcess.mjs';
import { findChromium, NO_BROWSER_REASON } from './support/chromium.mjs';
import { runVitest } from '../support/vitestRun.mjs';

/** `--name value` or `--name=value` taken out of `args`; the rest (file filters, -t) goes to vitest. */
function takeOption(args, name) {
	const rest = [];
	let value;
	for (let index = 0; index < args.length; index++) {
		if (args[index] === `--${name}`) value = args[++index];
		else if (args[index].startsWith(`--${name}=`)) value = args[index].slice(name.length + 3);
		else rest.push(args[index]);
	}
	return { [name]: value, rest };
}

const started = Date.now();
// The editor tests (editor.test.mts) drive Debian's chromium; without one they are skipped, said here and at the end.
const browser = findChromium();
console.log(
	browser
		? `[e2e] editor tests in a browser: ${browser}`
		: `[e2e] editor tests in a browser: SKIPPED, ${NO_BROWSER_REASON}`,
);
const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
const { n8n: n8nOption, rest: args } = takeOption(process.argv.slice(2), 'n8n');
const all = args.includes('--all');
const vitestArgs = args.filter((arg) => arg !== '--all');
const versions = (n8nOption ?? process.env.TEST_N8N_VERSION ?? DEFAULT_N8N_VERSION)
	.split(',')
	.map((version) => resolveN8nVersion(version.trim()));
const requested = process.env.E2E_MODE;
const modes = requested ? [requested] : hasRedis ? ['regular', 'queue'] : ['regular'];
let current;
// Ctrl-C reaches vitest through the terminal; wait for it to tear its stack down.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => current?.kill(signal));

/**
 * The committed screenshots (the README shows them) come from the default n8n; another version's go to
 * .cache/e2e/screenshots-<version>/, so runs of two versions side by side never touch each other's.
 */
function screenshotEnv(version) {
	return version === DEFAULT_N8N_VERSION
		? {}
		: { E2E_SCREENSHOT_DIR: join(cacheRoot, 'e2e', `screenshots-${version}`) };
}

/** Which cases run on `version`: all on the default n8n (or with --all), else the per-line selection. */
function selectionFor(version) {
	if (all || version === DEFAULT_N8N_VERSION) return { args: [], says: 'every case' };
	return {
		args: ['--tags-filter=every-line'],
		says: `the per-line selection (cases tagged every-line; every case runs on the default n8n ${DEFAULT_N8N_VERSION} and with --all)`,
	};
}

/** One vitest run of the suite on n8n `version` in `mode`; resolves to its counts. */
async function runVariant(version, mode) {
	const label = `n8n ${version} ${mode}`;
	const runDir = join(cacheRoot, 'e2e', `run-${process.pid}-${version}-${mode}`);
	mkdirSync(runDir, { recursive: true });
	const variantStarted = Date.now();
	const selection = selectionFor(version);
	console.log(`[e2e ${label}] ${selection.says}`);
	const { code, passed, failed } = await runVitest(
		'test/e2e/vitest.config.mts',
		[...vitestArgs, ...selection.args],
		{
			cwd: projectRoot,
			env: {
				...process.env,
				...screenshotEnv(version),
				E2E_RUN_DIR: runDir,
				E2E_MODE: mode,
				TEST_N8N_VERSION: version,
			},
			onChild: (child) => (current = child),
		},
	);
	const leftovers = killRecordedGroups(runDir);
	if (leftovers > 0)
		console.log(`[e2e ${label}] killed ${leftovers} process group(s) vitest left behind`);
	if (code === 0 && failed === 0 && passed > 0) rmSync(runDir, { recursive: true, force: true });
	else console.log(`[e2e ${label}] logs and data kept in ${runDir}`);
	return {
		mode: `${label}${selection.args.length > 0 ? ' (per-line selection)' : ''}`,
		passed,
		failed,
		seconds: Math.round((Date.now() - variantStarted) / 1000),
	};
}

const results = [];
for (const version of versions)
	for (const mode of modes) results.push(await runVariant(version, mode));

const passed = results.reduce((sum, result) => sum + result.passed, 0);
const failed = results.reduce((sum, result) => sum + result.failed, 0);
const ok = failed === 0 && passed > 0;
console.log(
	`\nEnd-to-end (real n8n) ${ok ? 'PASSED' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`,
);
for (const result of results)
	console.log(
		`  ${result.mode}: ${result.passed} passed, ${result.failed} failed (${result.seconds} s)`,
	);
if (!requested && !hasRedis)
	console.log('  queue: skipped (no redis-server; apt-get install redis-server to run it)');
if (!browser) console.log(`  editor tests in a browser: skipped (${NO_BROWSER_REASON})`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
