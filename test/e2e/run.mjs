#!/usr/bin/env node
// `npm run test:e2e`: the real-n8n suite in a child vitest, then a sweep that kills any n8n it left
// behind (vitest itself killed or crashed), and one closing `N passed, N failed` line.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, projectRoot } from '../support/n8nInstall.mjs';
import { killRecordedGroups } from '../support/n8nProcess.mjs';

const runDir = join(cacheRoot, 'e2e', `run-${process.pid}`);
const reportFile = join(runDir, 'report.json');
mkdirSync(runDir, { recursive: true });
const started = Date.now();

const child = spawn(
	process.execPath,
	[
		join(projectRoot, 'node_modules/vitest/vitest.mjs'),
		'run',
		'--config',
		'test/e2e/vitest.config.ts',
		'--reporter=default',
		'--reporter=json',
		`--outputFile.json=${reportFile}`,
		...process.argv.slice(2),
	],
	{ cwd: projectRoot, stdio: 'inherit', env: { ...process.env, E2E_RUN_DIR: runDir } },
);
// Ctrl-C reaches vitest through the terminal; wait for it to tear the stack down.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const code = await new Promise((resolveCode) => child.on('close', (exitCode) => resolveCode(exitCode ?? 1)));

const leftovers = killRecordedGroups(runDir);
if (leftovers > 0) console.log(`[e2e] killed ${leftovers} n8n process group(s) vitest left behind`);

let passed = 0;
let failed = 1;
if (existsSync(reportFile)) {
	const report = JSON.parse(readFileSync(reportFile, 'utf8'));
	passed = report.numPassedTests;
	failed = report.numFailedTests;
}
// A run that failed outside any test (n8n did not start, a crash) still counts as one failure.
if (code !== 0 && failed === 0) failed = 1;
const ok = code === 0 && failed === 0 && passed > 0;
if (ok) rmSync(runDir, { recursive: true, force: true });
else console.log(`[e2e] n8n's log and data kept in ${runDir}`);
console.log(`\nEnd-to-end (real n8n) ${ok ? 'PASSED' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
