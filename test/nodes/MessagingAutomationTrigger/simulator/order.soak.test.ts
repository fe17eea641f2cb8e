/**
 * Whether a family's cases come to the same outcome wherever they fall in a sequence
 * (orderIndependence.test.ts holds a few on `npm test`): SIM_ORDER_FAMILY=… SIM_SEED=… SIM_CASES=…
 * runs the seed's cases one after another on one pool of processes, then each again alone on a
 * pool of its own (fresh module instances, later on the clock), and prints the indices whose
 * fingerprints (fingerprint.ts) differ. Fresh instances for each of more than a few hundred cases
 * fill the worker's memory: SIM_ORDER_FROM=<index> runs alone only the cases from there on (the
 * sequence is still the count's, from case 0). Backward is no test of it: a case that an earlier
 * one changes is as likely changed by a later one. With SIM_ORDER_TARGET=<index> it finds instead
 * which single earlier case, run just before it, changes that case's outcome. With the soak
 * config; without SIM_ORDER_FAMILY it runs nothing.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { installProcessedDataStore } from '../../../support/processedData';
import { fingerprint } from './fingerprint';
import { ProcessPool } from './processPool';
import { FAMILIES, type Family } from './property';
import { caseArb, type Case } from './scenario';
import { installVirtualTime, uninstallVirtualTime } from './virtualTime';
import { runCase } from './world';

const family = process.env.SIM_ORDER_FAMILY as Family | undefined;
const target = process.env.SIM_ORDER_TARGET;

/** Each case's fingerprint, `cases` run one after another on a new pool. */
async function all(cases: readonly Case[]): Promise<string[]> {
	const pool = new ProcessPool();
	const found: string[] = [];
	for (const c of cases) {
		await pool.nextCase();
		found.push(fingerprint(await runCase(c, pool)));
	}
	return found;
}

/** The last case's fingerprint, `cases` run one after another on a new pool. */
const last = async (cases: readonly Case[]) => (await all(cases)).at(-1);

describe.runIf(family)('simulator order', () => {
	beforeAll(() => {
		installProcessedDataStore();
		installVirtualTime();
	});
	afterAll(() => uninstallVirtualTime());
	const seed = Number(process.env.SIM_SEED ?? 1);
	const draw = (total: number) =>
		fc.sample(caseArb(FAMILIES[family ?? 'everything']), { seed, numRuns: total });

	it.skipIf(target)(
		`compares ${family} in sequence and alone`,
		async () => {
			const cases = draw(Number(process.env.SIM_CASES ?? 200));
			const from = Number(process.env.SIM_ORDER_FROM ?? 0);
			const inSequence = await all(cases);
			const differ: number[] = [];
			for (let index = from; index < cases.length; index++)
				if ((await last([cases[index]])) !== inSequence[index]) differ.push(index);
			console.log(
				`${family}, seed ${seed}: ${differ.length} of cases ${from} to ${cases.length - 1} differ alone: ${differ.join(', ') || 'none'}`,
			);
			expect(differ).toEqual([]);
		},
		3_600_000,
	);

	it.runIf(target)(
		`finds the earlier cases that change case ${target}`,
		async () => {
			const index = Number(target);
			const cases = draw(index + 1);
			const alone = await last([cases[index]]);
			const changing: number[] = [];
			for (let before = 0; before < index; before++)
				if ((await last([cases[before], cases[index]])) !== alone) changing.push(before);
			console.log(`case ${index} changes after: ${changing.join(', ') || 'none'}`);
			expect(changing).toEqual([]);
		},
		3_600_000,
	);
});
