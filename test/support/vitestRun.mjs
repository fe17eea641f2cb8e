// Runs vitest once with a JSON report beside the console output and returns its counts, so the
// unit and end-to-end runners can both close with one `N passed, N failed` line.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The environment for vitest: NO_COLOR when our output is not a terminal (a CI log, a file), since
 * vitest colours whenever it is not told otherwise; FORCE_COLOR or NO_COLOR set by the caller wins.
 */
function plainWhenNotATerminal() {
	const asked = 'FORCE_COLOR' in process.env || 'NO_COLOR' in process.env;
	return asked || process.stdout.isTTY ? process.env : { ...process.env, NO_COLOR: '1' };
}

/** Resolves to `{ code, passed, failed, skipped }`; a run that failed outside any test counts one failure. */
export async function runVitest(config, extraArgs = [], { onChild, ...spawnOptions } = {}) {
	const reportDir = mkdtempSync(join(tmpdir(), 'vitest-report-'));
	const reportFile = join(reportDir, 'report.json');
	const child = spawn(
		process.execPath,
		[
			'node_modules/vitest/vitest.mjs',
			'run',
			'--config',
			config,
			'--reporter=default',
			'--reporter=./test/support/quietJsonReporter.mjs',
			...extraArgs,
		],
		{
			stdio: 'inherit',
			...spawnOptions,
			env: { ...plainWhenNotATerminal(), ...spawnOptions.env, VITEST_REPORT_FILE: reportFile },
		},
	);
	onChild?.(child);
	const code = await new Promise((resolve) =>
		child.on('close', (exitCode) => resolve(exitCode ?? 1)),
	);
	const report = existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : undefined;
	rmSync(reportDir, { recursive: true, force: true });
	const passed = report?.numPassedTests ?? 0;
	// numFailedTestSuites counts the files of failed tests too, so only tests are summed here.
	const failed = Math.max(report?.numFailedTests ?? 0, code === 0 ? 0 : 1);
	const skipped = (report?.numPendingTests ?? 0) + (report?.numTodoTests ?? 0);
	return { code, passed, failed, skipped };
}
