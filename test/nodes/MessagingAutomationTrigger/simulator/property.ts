/**
 * The simulator as a fast-check property: each family of cases, a seed, a budget. A counterexample
 * is reported with its seed, its shrunk case, what broke, and one command that replays it.
 */
import fc from 'fast-check';

import { violations, type Rule, type Violation } from './invariants';
import type { ProcessPool } from './processPool';
import { caseArb, type Case, type Knobs } from './scenario';
import { runCase } from './world';

/** Families of cases: each turns on what the issue lists, alone or all together. */
export const FAMILIES = {
	/** Prompt deliveries, quiet windows below 8 s, Deduplicate Events on or off, clocks skewed. */
	prompt: { dedupeOff: true },
	/** Copies of deliveries and two webhook processes. */
	copies: { copies: true, twoProcesses: true },
	/** Late, trickled, together and out-of-order deliveries; phones offline; phone clocks off and stepping. */
	late: { late: true, phoneClock: true },
	/** Quiet windows above 8 s, Deduplicate Events on and off. */
	longQuiet: { longQuiet: true, dedupeOff: true },
	/** n8n failing to record a run. */
	unrecorded: { unrecorded: true, twoProcesses: true },
	/** Read failures and 429s, on prompt and late deliveries. */
	readFaults: { readFaults: true, late: true },
	/** Process stops at any step, one or two processes. */
	stops: { stops: true, twoProcesses: true },
	/** The host's clock skewed and stepping during holds. */
	hostClock: { hostClock: true },
	/** Everything at once. */
	everything: {
		late: true,
		longQuiet: false,
		dedupeOff: true,
		copies: true,
		readFaults: true,
		unrecorded: true,
		stops: true,
		twoProcesses: true,
		phoneClock: true,
		hostClock: true,
	},
} satisfies Record<string, Knobs>;

export type Family = keyof typeof FAMILIES;

export interface SimulatorRun {
	family: Family;
	seed: number;
	cases: number;
	wallMs: number;
	counterexample?: { case: Case; violations: Violation[]; path: string };
}

class CaseViolated extends Error {
	constructor(readonly found: Violation[]) {
		super(found.map((violation) => `${violation.rule}: ${violation.detail}`).join('; '));
	}
}

/** Checks one case; throws what it violates (rules in `tolerated` aside). */
export async function checkCase(c: Case, pool: ProcessPool): Promise<Violation[]> {
	await pool.nextCase();
	return violations(c, await runCase(c, pool));
}

export async function simulate(
	pool: ProcessPool,
	family: Family,
	options: { seed: number; numRuns: number; path?: string; ignore?: readonly Rule[] },
): Promise<SimulatorRun> {
	const started = process.hrtime.bigint();
	let cases = 0;
	const property = fc.asyncProperty(caseArb(FAMILIES[family]), async (c) => {
		cases++;
		const found = (await checkCase(c, pool)).filter(
			(violation) => !options.ignore?.includes(violation.rule),
		);
		if (found.length > 0) throw new CaseViolated(found);
	});
	const details = await fc.check(property, {
		seed: options.seed,
		numRuns: options.numRuns,
		path: options.path,
		endOnFailure: options.path !== undefined,
	});
	const run: SimulatorRun = {
		family,
		seed: options.seed,
		cases,
		wallMs: Number(process.hrtime.bigint() - started) / 1e6,
	};
	if (details.failed && details.counterexample) {
		const error = details.errorInstance;
		run.counterexample = {
			case: details.counterexample[0],
			violations:
				error instanceof CaseViolated
					? error.found
					: [{ rule: 'oneRun', detail: `the simulator failed: ${String(error)}` }],
			path: details.counterexamplePath ?? '',
		};
	}
	return run;
}

/** What a failure prints: the seed, the shrunk case, what broke, the command that replays it. */
export function report(run: SimulatorRun): string {
	const found = run.counterexample;
	if (!found)
		return `${run.family}: ${run.cases} cases, no violation (seed ${run.seed}, ${Math.round(run.wallMs)} ms)`;
	return [
		`Simulator family "${run.family}", seed ${run.seed}: ${found.violations.length} violation(s)`,
		...found.violations.map((violation) => `  - ${violation.rule}: ${violation.detail}`),
		`Shrunk case: ${JSON.stringify(found.case)}`,
		`Replay: SIM_FAMILY=${run.family} SIM_SEED=${run.seed} SIM_PATH=${found.path} npx vitest run --config test/vitest.config.mts --project simulator test/nodes/MessagingAutomationTrigger/simulator/simulator.test.ts`,
	].join('\n');
}
