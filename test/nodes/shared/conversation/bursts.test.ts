import { describe, expect, it } from 'vitest';

import { burstOf, type BurstRules } from '../../../../nodes/shared/conversation/bursts';
import { timelineOf, type TimelineMessage } from '../../../../nodes/shared/conversation/timeline';

const RULES: BurstRules = { quietMs: 3000, longestMs: 10_000 };
const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
/** Read long after every message: each burst is closed. */
const LATER = T0 + 3_600_000;
const READ_LATER = { complete: true, asOf: LATER };
const at = (seconds: number) => T0 + seconds * 1000;

/** Messages as get_messages answers them (newest first); `at` in seconds after T0. */
function timeline(
	entries: Array<{ id: string; at: number; from?: string; me?: boolean; conversation?: string }>,
): TimelineMessage[] {
	const messages = entries.map(({ id, at, from = 'alice', me = false, conversation = 'chat' }) => ({
		id,
		conversation_id: conversation,
		from: { phone: from },
		from_me: me,
		text: id,
		timestamp: new Date(T0 + at * 1000).toISOString(),
	}));
	return timelineOf({ messages: messages.reverse() });
}

const ids = (verdict: ReturnType<typeof burstOf>) =>
	verdict.kind === 'last' ? verdict.messages.map((entry) => entry.id) : verdict.kind;

describe('burstOf', () => {
	const chat = timeline([
		{ id: 'old', at: -100 },
		{ id: 'a', at: 0 },
		{ id: 'b', at: 2 },
		{ id: 'c', at: 4 },
		{ id: 'late', at: 9 },
	]);

	it('gives the burst to its last message only', () => {
		expect(ids(burstOf(chat, 'a', RULES, READ_LATER))).toBe('notLast');
		expect(ids(burstOf(chat, 'b', RULES, READ_LATER))).toBe('notLast');
		expect(ids(burstOf(chat, 'c', RULES, READ_LATER))).toEqual(['a', 'b', 'c']);
		expect(ids(burstOf(chat, 'late', RULES, READ_LATER))).toEqual(['late']);
		expect(burstOf(chat, 'c', RULES, READ_LATER)).toMatchObject({ closedBy: 'quiet_window' });
	});

	it('cuts a chain at the longest wait from its first message, and the rest starts the next burst', () => {
		const typing = timeline(
			Array.from({ length: 9 }, (_, index) => ({ id: `m${index}`, at: index * 2 })),
		);
		// 0, 2, … 16 s: the first burst takes what was written less than 10 s after 0.
		expect(ids(burstOf(typing, 'm4', RULES, READ_LATER))).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
		expect(burstOf(typing, 'm4', RULES, READ_LATER)).toMatchObject({ closedBy: 'longest_wait' });
		expect(ids(burstOf(typing, 'm5', RULES, READ_LATER))).toBe('notLast');
		expect(ids(burstOf(typing, 'm8', RULES, READ_LATER))).toEqual(['m5', 'm6', 'm7', 'm8']);
	});

	it("ends a burst at the account's own message", () => {
		const replied = timeline([
			{ id: 'q1', at: 0 },
			{ id: 'reply', at: 1, me: true },
			{ id: 'q2', at: 2 },
		]);
		expect(burstOf(replied, 'q1', RULES, READ_LATER)).toMatchObject({
			kind: 'last',
			closedBy: 'own_message',
		});
		expect(ids(burstOf(replied, 'q2', RULES, READ_LATER))).toEqual(['q2']);
	});

	it('keeps how and when a burst closed when the account writes only after its quiet window: every read draws the same close', () => {
		const before = timeline([
			{ id: 'a', at: 0 },
			{ id: 'b', at: 1 },
		]);
		const after = timeline([
			{ id: 'a', at: 0 },
			{ id: 'b', at: 1 },
			{ id: 'reply', at: 40, me: true },
		]);
		const closed = burstOf(before, 'b', RULES, READ_LATER);
		expect(closed).toMatchObject({ kind: 'last', closedBy: 'quiet_window' });
		expect(burstOf(after, 'b', RULES, READ_LATER)).toEqual(closed);
	});

	it('keeps one author per burst in a group chat, however the authors interleave', () => {
		const group = timeline([
			{ id: 'a1', at: 0, from: 'alice' },
			{ id: 'b1', at: 1, from: 'bob' },
			{ id: 'a2', at: 2, from: 'alice' },
			{ id: 'b2', at: 3, from: 'bob' },
		]);
		expect(ids(burstOf(group, 'a2', RULES, READ_LATER))).toEqual(['a1', 'a2']);
		expect(ids(burstOf(group, 'b2', RULES, READ_LATER))).toEqual(['b1', 'b2']);
		expect(ids(burstOf(group, 'a1', RULES, READ_LATER))).toBe('notLast');
	});

	it('orders by the messages own time, and same-time messages as the service listed them', () => {
		const tied = timeline([
			{ id: 'x', at: 0 },
			{ id: 'y', at: 0 },
			{ id: 'z', at: 1 },
		]);
		expect(ids(burstOf(tied, 'z', RULES, READ_LATER))).toEqual(['x', 'y', 'z']);
	});

	it('asks for older messages while the chain may reach beyond the page, not when an older message is far enough back', () => {
		const page = timeline([
			{ id: 'a', at: 0 },
			{ id: 'b', at: 2 },
		]);
		expect(burstOf(page, 'b', RULES, { complete: false, asOf: LATER })).toEqual({
			kind: 'needOlder',
		});
		const bounded = timeline([
			{ id: 'other', at: -10, from: 'bob' },
			{ id: 'a', at: 0 },
			{ id: 'b', at: 2 },
		]);
		expect(ids(burstOf(bounded, 'b', RULES, { complete: false, asOf: LATER }))).toEqual(['a', 'b']);
	});

	it('waits while the newest message may still get company: until its quiet window passes', () => {
		const quick = timeline([
			{ id: 'a', at: 0 },
			{ id: 'b', at: 2 },
		]);
		expect(burstOf(quick, 'b', RULES, { complete: true, asOf: at(4) })).toEqual({
			kind: 'wait',
			until: at(5) + 1,
		});
		expect(ids(burstOf(quick, 'b', RULES, { complete: true, asOf: at(5) + 1 }))).toEqual([
			'a',
			'b',
		]);
		// An earlier message is settled as soon as a later one of its burst is read.
		expect(burstOf(quick, 'a', RULES, { complete: true, asOf: at(2) })).toEqual({
			kind: 'notLast',
		});
	});

	it('closes a burst at its longest wait even while the person keeps typing', () => {
		const typing = timeline(
			Array.from({ length: 5 }, (_, index) => ({ id: `m${index}`, at: index * 2 })),
		);
		// 0, 2, … 8 s, read at 9.5 s: the quiet window after m4 ends at 11 s, the longest wait at 10 s.
		expect(burstOf(typing, 'm4', RULES, { complete: true, asOf: at(9.5) })).toEqual({
			kind: 'wait',
			until: at(10),
		});
		const closed = burstOf(typing, 'm4', RULES, { complete: true, asOf: at(10) });
		expect(ids(closed)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
		expect(closed).toMatchObject({ closedBy: 'longest_wait' });
	});

	it("names the quiet window when a late read finds nothing after the burst's last message", () => {
		const single = timeline([{ id: 'only', at: 0 }]);
		expect(burstOf(single, 'only', RULES, READ_LATER)).toMatchObject({
			kind: 'last',
			closedBy: 'quiet_window',
		});
	});
});
