/**
 * The seeded conversation simulator (issue 43, item 4) on its default budget: every family of
 * cases against the real trigger (webhook() through receive.ts, execute() through runClaim.ts) on
 * the virtual clock, held to the invariants (invariants.ts). Deterministic: a fixed seed per
 * family. A failure prints its seed, the shrunk case and the command that replays it:
 * SIM_FAMILY=… SIM_SEED=… SIM_PATH=… with this file's vitest command.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { installProcessedDataStore } from '../../../support/processedData';
import { excused, KNOWN_BROKEN, LIMITS, TOLERATED } from './knownBroken';
import { ProcessPool } from './processPool';
import { FAMILIES, report, simulate, type Family } from './property';
import type { Rule } from './invariants';
import { installVirtualTime, uninstallVirtualTime } from './virtualTime';

/** Cases per family on `npm test`: about 25 s of one core in all. */
const DEFAULT_CASES = 120;
const DEFAULT_SEED = 43;

const pool = new ProcessPool();
beforeAll(() => {
	installProcessedDataStore();
	installVirtualTime();
});
afterAll(() => uninstallVirtualTime());

const replay = process.env.SIM_SEED
	? {
			/** SIM_IGNORE=reads,answeredInTime: rules left out, to see what else a family breaks. */
			ignore: (process.env.SIM_IGNORE ?? '').split(',').filter(Boolean) as Rule[],
			family: (process.env.SIM_FAMILY ?? 'everything') as Family,
			seed: Number(process.env.SIM_SEED),
			path: process.env.SIM_PATH,
		}
	: undefined;

describe.runIf(replay)('simulator replay', () => {
	it(`replays family ${replay?.family}, seed ${replay?.seed}`, async () => {
		if (!replay) return;
		const run = await simulate(pool, replay.family, {
			seed: replay.seed,
			numRuns: replay.path ? 1 : Number(process.env.SIM_CASES ?? DEFAULT_CASES),
			// As the soak and the default budget held it: the family's limits left out too.
			ignore: [...excused(replay.family), ...replay.ignore],
			path: replay.path,
		});
		console.log(report(run));
		expect(run.counterexample === undefined, report(run)).toBe(true);
	});
});

describe.skipIf(replay)('conversation simulator, default budget', () => {
	for (const family of Object.keys(FAMILIES) as Family[]) {
		const known = KNOWN_BROKEN[family];
		if (!known) {
			const tolerated = TOLERATED[family];
			const but = [
				...(LIMITS[family] ? [` but the limit ${LIMITS[family].join(', ')}`] : []),
				...(tolerated
					? [` but ${tolerated.rules.join(', ')} (finding ${tolerated.findings})`]
					: []),
			].join(',');
			it(`${family}: ${DEFAULT_CASES} cases, every invariant holds${but}`, async () => {
				const run = await simulate(pool, family, {
					seed: DEFAULT_SEED,
					numRuns: DEFAULT_CASES,
					ignore: excused(family),
				});
				expect(run.counterexample === undefined, report(run)).toBe(true);
			});
			continue;
		}
		it(`${family}: still breaks by finding ${known.findings} (take it off KNOWN_BROKEN once fixed)`, async () => {
			// A limit is no sign of the finding.
			const run = await simulate(pool, family, {
				seed: DEFAULT_SEED,
				numRuns: DEFAULT_CASES,
				ignore: LIMITS[family],
			});
			console.log(report(run));
			expect(
				run.counterexample,
				`no violation in ${run.cases} cases: finding ${known.findings} looks fixed`,
			).toBeDefined();
			for (const violation of run.counterexample?.violations ?? [])
				expect(known.rules, `${violation.rule}: ${violation.detail}\n${report(run)}`).toContain(
					violation.rule,
				);
		});
	}
});
