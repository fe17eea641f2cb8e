#!/usr/bin/env node
// `npm run test:e2e`: the real-n8n suite, once with a single n8n process and once in queue mode (Redis,
// main, webhook and worker processes) when Debian's redis-server is installed. Each variant runs in a
// child vitest; afterwards a sweep kills any process it left behind (vitest killed or crashed), and
// one closing `N passed, N failed` line sums both. E2E_MODE=regular or E2E_MODE=queue runs one variant.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, projectRoot } from '../support/n8nInstall.mjs';
import { killRecordedGroups } from '../support/n8nProcess.mjs';
import { findChromium, NO_BROWSER_REASON } from './support/chromium.mjs';
import { runVitest } from '../support/vitestRun.mjs';

const started = Date.now();
// The editor tests (editor.test.mts) drive Debian's chromium; without one they are skipped, said here and at the end.
const browser = findChromium();
console.log(browser ? `[e2e] editor tests in a browser: ${browser}` : `[e2e] editor tests in a browser: SKIPPED, ${NO_BROWSER_REASON}`);
const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
const requested = process.env.E2E_MODE;
const modes = requested ? [requested] : hasRedis ? ['regular', 'queue'] : ['regular'];
let current;
// Ctrl-C reaches vitest through the terminal; wait for it to tear its stack down.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => current?.kill(signal));

/** One vitest run of the suite in `mode`; resolves to its counts. */
async function runVariant(mode) {
	const runDir = join(cacheRoot, 'e2e', `run-${process.pid}-${mode}`);
	mkdirSync(runDir, { recursive: true });
	const { code, passed, failed } = await runVitest('test/e2e/vitest.config.mts', process.argv.slice(2), {
		cwd: projectRoot,
		env: { ...process.env, E2E_RUN_DIR: runDir, E2E_MODE: mode },
		onChild: (child) => (current = child),
	});
	const leftovers = killRecordedGroups(runDir);
	if (leftovers > 0) console.log(`[e2e ${mode}] killed ${leftovers} process group(s) vitest left behind`);
	if (code === 0 && failed === 0 && passed > 0) rmSync(runDir, { recursive: true, force: true });
	else console.log(`[e2e ${mode}] logs and data kept in ${runDir}`);
	return { mode, passed, failed };
}

const results = [];
for (const mode of modes) results.push(await runVariant(mode));

const passed = results.reduce((sum, result) => sum + result.passed, 0);
const failed = results.reduce((sum, result) => sum + result.failed, 0);
const ok = failed === 0 && passed > 0;
console.log(`\nEnd-to-end (real n8n) ${ok ? 'PASSED' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`);
for (const result of results) console.log(`  ${result.mode}: ${result.passed} passed, ${result.failed} failed`);
if (!requested && !hasRedis) console.log('  queue: skipped (no redis-server; apt-get install redis-server to run it)');
if (!browser) console.log(`  editor tests in a browser: skipped (${NO_BROWSER_REASON})`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
