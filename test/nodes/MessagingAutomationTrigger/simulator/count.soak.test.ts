/**
 * How often a family breaks, not only whether: SIM_COUNT_FAMILY=… SIM_SEED=… SIM_CASES=… with
 * `npm run test:soak -- <this file>` runs that many cases of the family and goes on past each
 * violating one (the soak and the replay stop at the first and shrink it), then prints each with its
 * index and case. A rare finding's rate, and whether every violation is that finding, are read here
 * (knownBroken.ts RARELY_BROKEN). Last it counts the cases by rule, and those that break a rule the
 * soak holds the family to (its limits and tolerated rules aside: knownBroken.ts excused). The cases
 * are fast-check's for the seed (fc.sample), in order. Without SIM_COUNT_FAMILY it runs nothing.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { installProcessedDataStore } from '../../../support/processedData';
import { excused } from './knownBroken';
import { ProcessPool } from './processPool';
import { checkCase, FAMILIES, type Family } from './property';
import { caseArb, type Case } from './scenario';
import type { Violation } from './invariants';
import { installVirtualTime, uninstallVirtualTime } from './virtualTime';

const family = process.env.SIM_COUNT_FAMILY as Family | undefined;

describe.runIf(family)('simulator count', () => {
	const pool = new ProcessPool();
	beforeAll(() => {
		installProcessedDataStore();
		installVirtualTime();
	});
	afterAll(() => uninstallVirtualTime());

	it(`counts the violating cases of ${family}`, async () => {
		if (!family) return;
		const seed = Number(process.env.SIM_SEED ?? 1);
		const total = Number(process.env.SIM_CASES ?? 1000);
		const started = process.hrtime.bigint();
		const found: Array<{ index: number; violations: Violation[]; case: Case }> = [];
		const cases = fc.sample(caseArb(FAMILIES[family]), { seed, numRuns: total });
		for (const [index, c] of cases.entries()) {
			const violations = await checkCase(c, pool);
			if (violations.length > 0) found.push({ index, violations, case: c });
		}
		const ms = Number(process.hrtime.bigint() - started) / 1e6;
		for (const entry of found)
			console.log(
				[
					`case ${entry.index}:`,
					...entry.violations.map((violation) => `  - ${violation.rule}: ${violation.detail}`),
					`  ${JSON.stringify(entry.case)}`,
				].join('\n'),
			);
		const byRule = new Map<string, number>();
		for (const entry of found)
			for (const rule of new Set(entry.violations.map((violation) => violation.rule)))
				byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
		const held = found.filter((entry) =>
			entry.violations.some((violation) => !excused(family).includes(violation.rule)),
		);
		console.log(
			`${family}, seed ${seed}: ${found.length} of ${total} cases violating (${[...byRule].map(([rule, count]) => `${rule} ${count}`).join(', ') || 'none'}), ${held.length} beyond what the soak excuses (${excused(family).join(', ') || 'nothing'}): cases ${held.map((entry) => entry.index).join(', ') || 'none'}; in ${Math.round(ms)} ms`,
		);
		expect(cases).toHaveLength(total);
	}, 3_600_000);
});
