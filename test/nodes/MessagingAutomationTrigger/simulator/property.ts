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
	/** Prompt deliveries, quiet windows below 8 s, Deduplicate Events on or off, two people. */
	prompt: { dedupeOff: true, twoPeople: true },
	/** The account writing in the chat between the person's messages (its message ends a burst). */
	accountWrites: { ownMessages: true, twoProcesses: true },
	/** Copies of deliveries and two webhook processes. */
	copies: { copies: true, twoProcesses: true, twoPeople: true },
	/** Late, trickled, together and out-of-order deliveries; phones offline; phone clocks off and stepping. */
	late: { late: true, phoneClock: true },
	/** Quiet windows above 8 s, Deduplicate Events on and off. */
	longQuiet: { longQuiet: true, dedupeOff: true },
	/** n8n failing to record a run. */
	unrecorded: { unrecorded: true, twoProcesses: true },
	/** Read failures and 429s, on prompt and late deliveries. */
	readFaults: { readFaults: true, late: true },
	/** Process stops at any step, one or two processes. */
	stops: { stops: true, twoProcesses: true, twoPeople: true },
	/** Pass Answers on with questions waiting: quoted and unquoted answers, n8n 1.x and 2.x. */
	answers: { answers: true, ownMessages: true },
	/** The same over two webhook processes, copies, Deduplicate Events off. */
	answerCopies: { answers: true, twoProcesses: true, copies: true, dedupeOff: true },
	/**
	 * Answers with process stops, read faults and a second process: offers taken over by later runs,
	 * and the Catch-Up node beside the trigger, which offers again an answer no run will (S8-1).
	 */
	answerStops: {
		answers: true,
		stops: true,
		readFaults: true,
		twoProcesses: true,
		copies: true,
		catchUp: true,
	},
	/** Events the service never queues (messages saved all the same), copies of them, two processes. */
	lostEvents: { lost: true, copies: true, twoProcesses: true, twoPeople: true },
	/**
	 * n8n's own URL failing (refused, 5xx, time-outs; a window or the whole case) with Pass Answers,
	 * the Catch-Up node and lost events: answers asked about and offered through that URL, by the
	 * trigger, its runs, and the poll, which gives up on a chat it cannot ask about (probePatience.ts).
	 */
	ownUrl: { answers: true, catchUp: true, lost: true, ownUrl: true },
	/**
	 * Human Takeover: the account pausing and resuming chats by its commands (in a burst's quiet
	 * window, near a person's next message, or a minute on), people writing hand-over words, Resume
	 * After 0, 6 minutes or 12 hours, late, trickled, scattered and copied deliveries, read faults,
	 * stops over two processes, two people; in half the cases lost events and the Catch-Up node.
	 */
	takeover: {
		takeover: true,
		late: true,
		copies: true,
		readFaults: true,
		stops: true,
		twoProcesses: true,
		twoPeople: true,
		someLost: true,
	},
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
		ownMessages: true,
		twoPeople: true,
	},
} satisfies Record<string, Knobs>;

export type Family = keyof typeof FAMILIES;

/** What the cases of a run exercised, summed: so a report shows the faults really happened. */
export interface Exercised {
	messages: number;
	runs: number;
	/** Delivery attempts after a failed one (a 503, a time-out, a 500, a stopped process). */
	retries: number;
	/** Processes started again after a stop. */
	restarts: number;
	reads: number;
	/** Runs the Catch-Up poll emitted, and what it threw (families with the Catch-Up node). */
	polledRuns: number;
	pollErrors: number;
}

export interface SimulatorRun {
	family: Family;
	seed: number;
	cases: number;
	exercised: Exercised;
	wallMs: number;
	counterexample?: { case: Case; violations: Violation[]; path: string };
}

class CaseViolated extends Error {
	constructor(readonly found: Violation[]) {
		super(found.map((violation) => `${violation.rule}: ${violation.detail}`).join('; '));
	}
}

/** Checks one case; throws what it violates (rules in `tolerated` aside). */
export async function checkCase(
	c: Case,
	pool: ProcessPool,
	exercised?: Exercised,
): Promise<Violation[]> {
	await pool.nextCase();
	const outcome = await runCase(c, pool);
	if (exercised) {
		exercised.messages += outcome.messages.length;
		exercised.runs += outcome.runs.filter((run) => run.passedOn).length;
		exercised.retries += outcome.attempts.filter((attempt) => attempt.attempt > 1).length;
		exercised.restarts += outcome.incarnations - c.processes;
		exercised.reads += outcome.reads.length;
		exercised.polledRuns += outcome.runs.filter((run) => run.polled).length;
		exercised.pollErrors += outcome.catchUp.errors.length;
	}
	return violations(c, outcome);
}

export async function simulate(
	pool: ProcessPool,
	family: Family,
	options: { seed: number; numRuns: number; path?: string; ignore?: readonly Rule[] },
): Promise<SimulatorRun> {
	const started = process.hrtime.bigint();
	let cases = 0;
	const exercised: Exercised = {
		messages: 0,
		runs: 0,
		retries: 0,
		restarts: 0,
		reads: 0,
		polledRuns: 0,
		pollErrors: 0,
	};
	const property = fc.asyncProperty(caseArb(FAMILIES[family]), async (c) => {
		cases++;
		const found = (await checkCase(c, pool, exercised)).filter(
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
		exercised,
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
	const { messages, runs, retries, restarts, reads, polledRuns, pollErrors } = run.exercised;
	const knobs = FAMILIES[run.family] as Knobs;
	const polled =
		knobs.catchUp || knobs.someLost
			? `, ${polledRuns} runs the Catch-Up poll emitted, ${pollErrors} poll errors`
			: '';
	const summary = `${run.cases} cases (${messages} messages, ${runs} runs, ${retries} retried deliveries, ${restarts} restarts, ${reads} reads${polled}) in ${Math.round(run.wallMs)} ms`;
	if (!found) return `${run.family}: ${summary}, no violation (seed ${run.seed})`;
	return [
		`Simulator family "${run.family}", seed ${run.seed}: ${found.violations.length} violation(s) after ${summary}`,
		...found.violations.map((violation) => `  - ${violation.rule}: ${violation.detail}`),
		`Shrunk case: ${JSON.stringify(found.case)}`,
		`Replay: SIM_FAMILY=${run.family} SIM_SEED=${run.seed} SIM_PATH=${found.path} npx vitest run --config test/vitest.config.mts --project simulator test/nodes/MessagingAutomationTrigger/simulator/simulator.test.ts`,
	].join('\n');
}
