/**
 * Replays chosen cases of a count (count.soak.test.ts) one by one, with their trace:
 * SIM_COUNT_FAMILY=… SIM_SEED=… SIM_CASES=… SIM_INDICES=454,1248 SIM_TRACE=1 with the soak config.
 * The cases are fast-check's for the seed, as the count draws them; each is printed with what it
 * violates. Without SIM_INDICES it runs nothing.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { installProcessedDataStore } from '../../../support/processedData';
import { ProcessPool } from './processPool';
import { checkCase, FAMILIES, type Family } from './property';
import { caseArb } from './scenario';
import { installVirtualTime, uninstallVirtualTime } from './virtualTime';

const indices = (process.env.SIM_INDICES ?? '').split(',').filter(Boolean).map(Number);

describe.runIf(indices.length > 0)('simulator replay of counted cases', () => {
	const pool = new ProcessPool();
	beforeAll(() => {
		installProcessedDataStore();
		installVirtualTime();
	});
	afterAll(() => uninstallVirtualTime());

	it('replays each case', async () => {
		const family = (process.env.SIM_COUNT_FAMILY ?? 'everything') as Family;
		const seed = Number(process.env.SIM_SEED ?? 1);
		const total = Math.max(...indices) + 1;
		const cases = fc.sample(caseArb(FAMILIES[family]), { seed, numRuns: total });
		for (const index of indices) {
			console.log(`=== case ${index}: ${JSON.stringify(cases[index])}`);
			const violations = await checkCase(cases[index], pool);
			console.log(
				[
					`=== case ${index} violates:`,
					...violations.map((v) => `  - ${v.rule}: ${v.detail}`),
				].join('\n'),
			);
		}
		expect(indices.length).toBeGreaterThan(0);
	}, 3_600_000);
});
