#!/usr/bin/env node
// `npm test`: the whole vitest suite, closed by one summary line that people and CI can read.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const outDir = mkdtempSync(join(tmpdir(), 'vitest-report-'));
const reportFile = join(outDir, 'report.json');
const run = spawnSync(
	process.execPath,
	[
		'node_modules/vitest/vitest.mjs',
		'run',
		'--config',
		'test/vitest.config.ts',
		'--reporter=default',
		'--reporter=json',
		`--outputFile.json=${reportFile}`,
		...process.argv.slice(2),
	],
	{ stdio: 'inherit' },
);

let summary;
try {
	const report = JSON.parse(readFileSync(reportFile, 'utf8'));
	summary = {
		passed: report.numPassedTests,
		failed: report.numFailedTests + (report.numFailedTestSuites ?? 0),
		skipped: report.numPendingTests + report.numTodoTests,
	};
} catch {
	summary = undefined;
}
rmSync(outDir, { recursive: true, force: true });

if (!summary) {
	console.log('\nTests: the runner produced no report (exit code ' + run.status + ')');
	console.log('0 passed, 1 failed');
	process.exit(1);
}
const ok = run.status === 0 && summary.failed === 0 && summary.passed > 0;
console.log(`\nTests ${ok ? 'PASSED' : 'FAILED'}`);
console.log(`${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`);
process.exit(ok ? 0 : 1);
