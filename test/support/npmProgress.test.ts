import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NpmCounts } from './npmProgress.mjs' with { 'resolution-mode': 'import' };

const load = () => import('./npmProgress.mjs');

/**
 * Two samples of the first n8n 2.40.7 install (npm's cache warm, 2026-11-27), taken while every tarball
 * had been found in npm's cache and no package folder was complete yet: the counts the old line showed
 * stayed the same for 20 s; the bytes npm read and wrote are as measured, the CPU seconds illustrative.
 */
const install = {
	phase: 'install',
	packuments: 1805,
	tarballs: 0,
	cached: 2344,
	installed: 0,
	expected: 1523,
} as const;
const first: NpmCounts = {
	...install,
	work: { read: 1_187_256_950, written: 4_707_110, cpuSeconds: 31.2 },
};
const second: NpmCounts = {
	...install,
	work: { read: 1_187_380_086, written: 81_800_354, cpuSeconds: 42.9 },
};

describe('install progress', () => {
	it('moves while npm unpacks with no package complete yet: bytes written and CPU time', async () => {
		const { describeJob } = await load();
		expect(describeJob(first)).toBe(
			"unpacking 2,344 packages (0 downloaded, 2,344 from npm's cache): 1,187 MB read, 5 MB written, 0 of about 1,523 complete (npm: 31 s of CPU)",
		);
		expect(describeJob(second)).not.toBe(describeJob(first));
		expect(describeJob(second)).toContain('82 MB written');
	});

	it('counts package descriptions while npm resolves', async () => {
		const { describeJob } = await load();
		expect(describeJob({ ...install, cached: 0, packuments: 947 })).toBe(
			'resolving, 947 package descriptions fetched',
		);
	});

	it('reports npm runs in flight on one line, oldest first, each with its own time', async () => {
		const { progressLine } = await load();
		const started = Date.parse('2026-11-27T16:40:08Z');
		const line = progressLine(
			[
				{ label: 'n8n', started, counts: second },
				{
					label: 'sqlite3 native build',
					started: started + 5000,
					counts: { ...install, phase: 'build' },
				},
			],
			started + 40_000,
		);
		expect(line).toMatch(/^n8n 40 s: unpacking .*; sqlite3 native build 35 s: compiling$/);
		expect(line.split('\n')).toHaveLength(1);
	});

	it('reads what a process has read and written from /proc', async () => {
		const { processWork } = await load();
		const folder = mkdtempSync('/tmp/npm-progress-');
		try {
			const file = join(folder, 'two-megabytes');
			const before = processWork(process.pid);
			writeFileSync(file, Buffer.alloc(2_000_000));
			readFileSync(file);
			const after = processWork(process.pid);
			expect(after!.written - before!.written).toBeGreaterThanOrEqual(2_000_000);
			expect(after!.read - before!.read).toBeGreaterThanOrEqual(2_000_000);
			expect(after!.cpuSeconds).toBeGreaterThanOrEqual(before!.cpuSeconds);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});

	it('has nothing to say about a process that is gone', async () => {
		const { processWork } = await load();
		expect(processWork(2 ** 22 + 1)).toBeUndefined();
	});
});
