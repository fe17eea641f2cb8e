/**
 * The takeover rule can fail (takeoverRule.ts): made-up outcomes of a chat with the account's
 * commands and a person's hand-over words, each run out of Bot or Paused Chats.
 */
import { describe, expect, it } from 'vitest';

import { plainCase } from './cases';
import { violations } from './invariants';
import { ownMessages, plannedMessages, type Case } from './scenario';
import type { OwnText, TakeoverSetup } from './takeover';
import type { Outcome } from './world';

interface Ran {
	ids: string[];
	outputs: number[];
	paused: boolean | null;
	at?: number;
	groupingError?: string;
}

/** A case of a burst typed `gapsMs` apart, the account writing `own` (kinds and times). */
function chat(
	gapsMs: number[],
	own: Array<{ kind: OwnText; afterMessage: number; delayMs: number }>,
	setup: Partial<TakeoverSetup> = {},
): Case {
	return plainCase(gapsMs, {
		ownMessages: own.map(({ afterMessage, delayMs }) => ({ afterMessage, delayMs })),
		takeover: { resumeAfterHours: 0, own: own.map(({ kind }) => kind), handovers: [], ...setup },
	});
}

function outcomeOf(c: Case, runs: Ran[]): Outcome {
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
		attempts: [],
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

const takeover = (c: Case, runs: Ran[]) =>
	violations(c, outcomeOf(c, runs))
		.filter((violation) => violation.rule === 'takeover')
		.map((violation) => violation.detail);

const bot = (ids: string[], at?: number): Ran => ({ ids, outputs: [0], paused: false, at });
const people = (ids: string[], at?: number): Ran => ({ ids, outputs: [1], paused: true, at });

describe('the takeover rule', () => {
	it('sends a burst after the pause command to Paused Chats, and one after the resume command to Bot', () => {
		// m1, "/bot off", then m2 8 s later, "/bot on", m3 8 s later (quiet window 5 s: three bursts).
		const c = chat(
			[8000, 8000],
			[
				{ kind: 'pause', afterMessage: 0, delayMs: 6000 },
				{ kind: 'resume', afterMessage: 1, delayMs: 6000 },
			],
		);
		expect(takeover(c, [bot(['m1']), people(['m2']), bot(['m3'])])).toEqual([]);
		const [wrong, ...others] = takeover(c, [bot(['m1']), bot(['m2']), bot(['m3'])]);
		expect(others).toEqual([]);
		expect(wrong).toMatch(
			/^run of \[m2\] came out of Bot \(takeover.paused false\); paused at m2 by o1 \(pause\)/,
		);
		expect(takeover(c, [people(['m1']), people(['m2']), people(['m3'])])).toHaveLength(2);
	});

	it('sends a whole burst to Paused Chats for a hand-over word in its middle, and its item out of one output', () => {
		const c = chat([300, 300], [], { handovers: [1] });
		expect(takeover(c, [people(['m1', 'm2', 'm3'])])).toEqual([]);
		expect(takeover(c, [bot(['m1', 'm2', 'm3'])])).toHaveLength(1);
		expect(takeover(c, [{ ids: ['m1', 'm2', 'm3'], outputs: [0, 1], paused: true }])).toEqual([
			'run of [m1 m2 m3] came out of Bot and Paused Chats',
		]);
		expect(takeover(c, [{ ids: ['m1', 'm2', 'm3'], outputs: [0], paused: true }])).toHaveLength(1);
	});

	it('lets a command typed in the quiet window after a burst pause it, and no later one (T12-2)', () => {
		const within = chat([300], [{ kind: 'pause', afterMessage: 1, delayMs: 2000 }]);
		expect(takeover(within, [people(['m1', 'm2'])])).toEqual([]);
		// Every read that runs the burst comes once it closed, and shows the command (R12b-1).
		expect(takeover(within, [bot(['m1', 'm2'])])).toHaveLength(1);
		// Typed before the run was recorded only: a run before it goes to Bot.
		expect(takeover(within, [people(['m1', 'm2'], 2000)])).toHaveLength(1);
		const after = chat([300], [{ kind: 'pause', afterMessage: 1, delayMs: 9000 }]);
		expect(takeover(after, [bot(['m1', 'm2'])])).toEqual([]);
		expect(takeover(after, [people(['m1', 'm2'])])).toEqual([
			"run of [m1 m2] came out of Paused Chats (takeover.paused true); not paused at m2 (as at o1, the account's newest message after it: T12-2)",
		]);
	});

	it('ends a pause at Resume After, by the messages’ timestamps', () => {
		const c = chat([8000], [{ kind: 'pause', afterMessage: 0, delayMs: 6000 }], {
			resumeAfterHours: 0.1,
		});
		expect(takeover(c, [bot(['m1']), people(['m2'])])).toEqual([]);
		const expired = { ...c, bursts: [{ ...c.bursts[0], gapsMs: [7 * 60_000] }] };
		expect(takeover(expired, [bot(['m1']), bot(['m2'], 600_000)])).toEqual([]);
		expect(takeover(expired, [bot(['m1']), people(['m2'], 600_000)])).toHaveLength(1);
	});

	it('takes a run whose read failed to Paused Chats, its pause not checked, only with its grouping error', () => {
		const c = chat([300], []);
		const unread: Ran = { ids: ['m1'], outputs: [1], paused: null };
		expect(takeover(c, [{ ...unread, groupingError: 'Not grouped: 503' }, bot(['m2'])])).toEqual(
			[],
		);
		expect(takeover(c, [unread, bot(['m2'])])).toEqual([
			'run of [m1] came out of Paused Chats (takeover.paused null), though it was read',
		]);
	});

	it('judges a run by the chat as saved by its record: a hand-over uploaded after it pauses nothing', () => {
		// m1 typed offline with a hand-over word and uploaded 40 s later; m2 typed 8 s after it, online.
		const c = chat([8000], [], { handovers: [0] });
		c.bursts = [{ ...c.bursts[0], offlineMs: 40_000 }];
		c.bursts.push({ person: 0, pauseMs: 8000, gapsMs: [], offlineMs: 0, saveGapMs: 0 });
		c.bursts[0].gapsMs = [];
		expect(takeover(c, [people(['m1'], 60_000), bot(['m2'], 20_000)])).toEqual([]);
		expect(takeover(c, [people(['m1'], 60_000), people(['m2'], 20_000)])).toHaveLength(1);
		// Recorded after the upload, its read may have come before or after it.
		expect(takeover(c, [people(['m1'], 60_000), bot(['m2'], 55_000)])).toEqual([]);
		expect(takeover(c, [people(['m1'], 60_000), people(['m2'], 55_000)])).toEqual([]);
	});
});
