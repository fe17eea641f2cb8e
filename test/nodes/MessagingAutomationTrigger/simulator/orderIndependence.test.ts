/**
 * A case comes to the same outcome wherever it falls in a sequence. The module instances of the
 * trigger serve many cases (processPool.ts), and what one case leaves in them (kept reads, deadline
 * slots) is kept by time and by keys of that case: a later case must find it old. Until 2026-11-29
 * vi.clearAllTimers() between cases put the fake clock back where it began (fake-timers' reset),
 * so every case began at the same time as the ones before it, beside their kept reads: one kept
 * read of an earlier case, "newer" than the case's own, kept the case's expired read from being
 * dropped (recentReads.ts drops oldest first), and a delivery the service sent again two minutes
 * later was settled by it without a read. Takeover seed 3, case 131 after case 30 (of 300 cases of
 * that seed, 6 came to another outcome run alone).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { installProcessedDataStore } from '../../../support/processedData';
import { fingerprint } from './fingerprint';
import { ProcessPool } from './processPool';
import { FAMILIES, type Family } from './property';
import { caseArb, type Case } from './scenario';
import { installVirtualTime, uninstallVirtualTime, VirtualTime } from './virtualTime';
import { runCase } from './world';

/** Cases of a family's seed by index (fast-check's, as the count draws them: count.soak.test.ts). */
const PICKS: ReadonlyArray<{ family: Family; seed: number; indices: number[] }> = [
	{ family: 'takeover', seed: 3, indices: [30, 32, 41, 121, 126, 131, 149] },
	// Questions, the Catch-Up poll and n8n's own URL failing: what else a process keeps.
	{ family: 'answers', seed: 3, indices: [1, 6, 7, 15] },
	{ family: 'ownUrl', seed: 3, indices: [6, 7, 10, 12] },
];

function picked(): Case[] {
	return PICKS.flatMap(({ family, seed, indices }) => {
		const cases = fc.sample(caseArb(FAMILIES[family]), {
			seed,
			numRuns: Math.max(...indices) + 1,
		});
		return indices.map((index) => cases[index]);
	});
}

/** Each case's fingerprint, the cases run one after another by one pool of processes. */
async function outcomes(cases: readonly Case[]): Promise<string[]> {
	const pool = new ProcessPool();
	const found: string[] = [];
	for (const c of cases) {
		await pool.nextCase();
		found.push(fingerprint(await runCase(c, pool)));
	}
	return found;
}

beforeAll(() => {
	installProcessedDataStore();
	installVirtualTime();
});
afterAll(() => uninstallVirtualTime());

describe('the simulator: cases independent of their order', () => {
	it('moves the fake clock only forward from one case to the next', async () => {
		const first = new VirtualTime(0, 0);
		await first.runUntil(10 * 60_000);
		const ended = performance.now();
		new VirtualTime(-30_000, 500);
		expect(performance.now()).toBeGreaterThan(ended);
	});

	it('gives each case the same outcome run forward and backward', async () => {
		const cases = picked();
		const forward = await outcomes(cases);
		const backward = (await outcomes([...cases].reverse())).reverse();
		for (const [index, outcome] of forward.entries())
			expect(backward[index], `case ${JSON.stringify(cases[index])}`).toBe(outcome);
	});
});
