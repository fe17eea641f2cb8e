/**
 * Review 12c (helper-71): the simulator's rules after R12-1..R12-6, fed made-up outcomes (as
 * takeoverRule.test.ts does) that a product bug would give, to see whether a rule still catches them.
 *
 * R12b-1 (medium, the takeover rule too lax): takeoverRule.ts `allowed` takes the union of the
 * states at every pivot ([last, ...closingIn(visible)]) over every read time from the last message's
 * save on. A read that runs a burst comes no earlier than its close (or than the account's message
 * that closed it), so it always shows a command typed before the close; yet the pivot `last` (and a
 * read "at last.saved") lets the run go to Bot as if the command had not been typed (or to Paused
 * Chats as if a resume had not). With burstPauseAt made to return `last` (T12-1, T12-2, R12-4 and
 * R12-5 undone), the takeover family found nothing in 900 cases (seeds 1 to 3, 300 each); only
 * review12b's fixed cases would notice. Should: the run's state at the newest account message in the
 * window that a read made no sooner than the burst's close by stamps (or the account's message that
 * closed it) shows. Smallest fix (tried, not committed): readTimes from min(close by stamps, the
 * first closing account message's save), and one pivot per read: the newest of closingIn(visible)
 * typed before the close by stamps or once the service had the last message (R12-5), else `last`.
 * It held 1,200 takeover cases (seeds 1 to 4) on today's code, flips one assertion of
 * takeoverRule.test.ts (T12-2's `bot(['m1', 'm2'])` for `within`), and found the mutant at case 69.
 *
 * R12b-2 (medium, the excuse too wide): invariants.ts nothingFollows takes a whole burst for
 * undelivered once any run of one of its members was "Not grouped", so a member that was delivered,
 * answered 2xx and ran nowhere is excused when nothing follows (or the account answered, with
 * Catch-Up): a real loss. Should: only the members no delivery reached (or whose own run was not
 * grouped) are as good as undelivered. Smallest fix: test `ungrouped` per message, e.g.
 * `!outcome.attempts.some((a) => burst.includes(a.message) && !ungroupedIds.has(a.message))`, where
 * ungroupedIds are the messages of runs with a grouping error.
 *
 * R12b-3 (medium, the excuse too wide): wholeBurst.ts excuses every run "Not grouped" but R43de-1's
 * ('the service was busy ('), so a split whose message gave up on its first attempt, without "still
 * not read at the service's third attempt", is excused too; the simulator injects only 429 and 503,
 * both passing (errorRules.ts isPassing), so every documented split says the third attempt. With
 * conversationDesk.ts made to give up at once on any failed read (a 429 splits the burst "Not
 * grouped" instead of handing it back), the readFaults family found nothing in 400 cases (seeds 1
 * and 2); wholeBurst.ts as of 416bc2d~1 found it at case 315 of seed 1, and so does the fix below.
 * Should: excuse only those. Smallest fix (tried, not committed): filter on
 * `run.groupingError?.includes("(still not read at the service's third attempt)")` and not 'the
 * service was busy ('; it held readFaults and takeover (seeds 1, 2: 1,200 cases), answerStops and
 * everything (seed 1: 400) on today's code.
 */
import { describe, expect, it } from 'vitest';

import { plainCase } from './cases';
import { violations } from './invariants';
import { ownMessages, plannedMessages, type Case } from './scenario';
import type { OwnText } from './takeover';
import type { AttemptLog, Outcome } from './world';

interface Ran {
	ids: string[];
	outputs: number[];
	paused: boolean | null;
	at?: number;
	groupingError?: string;
}

function outcomeOf(c: Case, runs: Ran[], attempts: AttemptLog[] = []): Outcome {
	const messages = plannedMessages(c);
	return {
		messages,
		own: ownMessages(c, messages),
		runs: runs.map((run) => ({
			process: 'p1',
			messageIds: run.ids,
			passedOn: true,
			at: run.at ?? 60_000,
			outputs: run.outputs,
			paused: run.paused,
			groupingError: run.groupingError,
		})),
		attempts,
		reads: [],
		unsettled: [],
		answeredUnrecorded: [],
		incarnations: 1,
		resumes: [],
		expected: new Map(),
		questionOf: new Map(),
		statusLookups: 0,
		catchUp: { listings: 0, reads: 0, errors: [] },
	};
}

/** A burst typed `gapsMs` apart, the account writing `own` after its message `afterMessage`. */
function chat(
	gapsMs: number[],
	own: Array<{ kind: OwnText; afterMessage: number; delayMs: number }>,
): Case {
	return plainCase(gapsMs, {
		ownMessages: own.map(({ afterMessage, delayMs }) => ({ afterMessage, delayMs })),
		takeover: { resumeAfterHours: 0, own: own.map(({ kind }) => kind), handovers: [] },
	});
}

const takeover = (c: Case, runs: Ran[]) =>
	violations(c, outcomeOf(c, runs))
		.filter((violation) => violation.rule === 'takeover')
		.map((violation) => violation.detail);

const bot = (ids: string[]): Ran => ({ ids, outputs: [0], paused: false });
const people = (ids: string[]): Ran => ({ ids, outputs: [1], paused: true });

describe('review 12c: the takeover rule, a command typed in the quiet window', () => {
	// m1, m2 0.3 s apart; the account types "/bot off" 2 s after m2 (quiet window 5 s): every read
	// that runs the burst comes at its close (7.3 s) or later, and shows the command.
	const within = chat([300], [{ kind: 'pause', afterMessage: 1, delayMs: 2000 }]);

	it('control: accepts the run out of Paused Chats', () => {
		expect(takeover(within, [people(['m1', 'm2'])])).toEqual([]);
	});

	// R12b-1: accepted today, by the pivot `last` of a read at m2's save, before the command was typed.
	it('R12b-1: refuses the run out of Bot, the command ignored', () => {
		expect(takeover(within, [bot(['m1', 'm2'])])).not.toEqual([]);
	});

	// m1; "/bot off" 6 s later; m2 8 s after m1 (its own burst); "/bot on" 2 s after m2, in its
	// quiet window: the resume closes m2's burst, and every read that runs it shows the resume.
	const resumedInWindow = chat(
		[8000],
		[
			{ kind: 'pause', afterMessage: 0, delayMs: 6000 },
			{ kind: 'resume', afterMessage: 1, delayMs: 2000 },
		],
	);

	it('control: accepts m2 out of Bot, judged at the resume', () => {
		expect(takeover(resumedInWindow, [bot(['m1']), bot(['m2'])])).toEqual([]);
	});

	// R12b-1: accepted today, by the pivot `last` (m2, paused by "/bot off"), though no read can miss the resume.
	it('R12b-1: refuses m2 out of Paused Chats, the resume in its window ignored', () => {
		expect(takeover(resumedInWindow, [bot(['m1']), people(['m2'])])).not.toEqual([]);
	});

	// Holds: "/bot off" then "/bot on" both in the window, Paused Chats is right when "/bot off"
	// closed the burst and its run's read came before the resume (closedBy own_message).
	it('control: accepts either output for a pause then a resume in the window', () => {
		const offThenOn = chat(
			[300],
			[
				{ kind: 'pause', afterMessage: 1, delayMs: 1000 },
				{ kind: 'resume', afterMessage: 1, delayMs: 2000 },
			],
		);
		expect(takeover(offThenOn, [bot(['m1', 'm2'])])).toEqual([]);
		expect(takeover(offThenOn, [people(['m1', 'm2'])])).toEqual([]);
	});
});

describe('review 12c: nothingFollows, a burst with a run "Not grouped"', () => {
	// m1, m2, m3 0.3 s apart, m3's event lost; m1 and m2 delivered and answered 2xx.
	const c = plainCase([300, 300], { lost: [2] });
	const delivered = (message: string, sentAt: number): AttemptLog => ({
		message,
		chain: 0,
		attempt: 1,
		process: 'p1',
		sentAt,
		status: 200,
		answeredAt: sentAt + 10,
	});
	const attempts = [delivered('m1', 0), delivered('m2', 300)];
	const notGrouped: Ran = {
		ids: ['m1'],
		outputs: [0],
		paused: null,
		groupingError: "Not grouped: 503 (still not read at the service's third attempt)",
	};
	const oneRun = (runs: Ran[]) =>
		violations(c, outcomeOf(c, runs, attempts))
			.filter((violation) => violation.rule === 'oneRun')
			.map((violation) => violation.detail);

	it('control: m2 run on its own too, nothing is lost but the lost event', () => {
		expect(oneRun([notGrouped, { ...notGrouped, ids: ['m2'] }])).toEqual([]);
	});

	it('control: without the grouping error, a delivered m2 that ran nowhere is a loss', () => {
		const grouped: Ran = { ids: ['m1'], outputs: [0], paused: null };
		expect(oneRun([grouped]).some((detail) => detail.startsWith('m2'))).toBe(true);
	});

	// R12b-2: m2 was delivered, answered 2xx and ran nowhere; m1's run "Not grouped" excuses it.
	it('R12b-2: a delivered member that ran nowhere is a loss beside a run not grouped', () => {
		expect(oneRun([notGrouped]).some((detail) => detail.startsWith('m2'))).toBe(true);
	});
});

describe('review 12c: wholeBurst, a burst split "Not grouped"', () => {
	// m1, m2 0.3 s apart; m1 runs on its own "Not grouped", m2 on its own.
	const c = plainCase([300]);
	const split = (groupingError: string) =>
		violations(
			c,
			outcomeOf(c, [
				{ ids: ['m1'], outputs: [0], paused: null, groupingError },
				{ ids: ['m2'], outputs: [0], paused: null },
			]),
		)
			.filter((violation) => violation.rule === 'wholeBurst')
			.map((violation) => violation.detail);

	it("control: excuses reads failing to the service's third attempt, not R43de-1's", () => {
		const third = "(still not read at the service's third attempt)";
		expect(split(`Not grouped: get_messages is unavailable ${third}`)).toEqual([]);
		expect(split(`Not grouped: the service was busy ${third}`)).not.toEqual([]);
	});

	// R12b-3: a passing 503 given up on at once (no third attempt) is excused as the documented split.
	it('R12b-3: refuses a split "Not grouped" before the third attempt', () => {
		expect(split('Not grouped: get_messages is unavailable')).not.toEqual([]);
	});
});
