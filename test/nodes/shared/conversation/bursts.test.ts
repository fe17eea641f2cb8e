import { describe, expect, it } from 'vitest';

import { burstOf, type BurstRules } from '../../../../nodes/shared/conversation/bursts';
import { timelineOf, type TimelineMessage } from '../../../../nodes/shared/conversation/timeline';

const RULES: BurstRules = { quietMs: 3000, longestMs: 10_000 };
const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);

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
		expect(ids(burstOf(chat, 'a', RULES, true))).toBe('notLast');
		expect(ids(burstOf(chat, 'b', RULES, true))).toBe('notLast');
		expect(ids(burstOf(chat, 'c', RULES, true))).toEqual(['a', 'b', 'c']);
		expect(ids(burstOf(chat, 'late', RULES, true))).toEqual(['late']);
		expect(burstOf(chat, 'c', RULES, true)).toMatchObject({ closedBy: 'quiet_window' });
	});

	it('cuts a chain at the longest wait from its first message, and the rest starts the next burst', () => {
		const typing = timeline(
			Array.from({ length: 9 }, (_, index) => ({ id: `m${index}`, at: index * 2 })),
		);
		// 0, 2, … 16 s: the first burst takes what was written less than 10 s after 0.
		expect(ids(burstOf(typing, 'm4', RULES, true))).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
		expect(burstOf(typing, 'm4', RULES, true)).toMatchObject({ closedBy: 'longest_wait' });
		expect(ids(burstOf(typing, 'm5', RULES, true))).toBe('notLast');
		expect(ids(burstOf(typing, 'm8', RULES, true))).toEqual(['m5', 'm6', 'm7', 'm8']);
	});

	it("ends a burst at the account's own message", () => {
		const replied = timeline([
			{ id: 'q1', at: 0 },
			{ id: 'reply', at: 1, me: true },
			{ id: 'q2', at: 2 },
		]);
		expect(burstOf(replied, 'q1', RULES, true)).toMatchObject({
			kind: 'last',
			closedBy: 'own_message',
		});
		expect(ids(burstOf(replied, 'q2', RULES, true))).toEqual(['q2']);
	});

	it('keeps one author per burst in a group chat, however the authors interleave', () => {
		const group = timeline([
			{ id: 'a1', at: 0, from: 'alice' },
			{ id: 'b1', at: 1, from: 'bob' },
			{ id: 'a2', at: 2, from: 'alice' },
			{ id: 'b2', at: 3, from: 'bob' },
		]);
		expect(ids(burstOf(group, 'a2', RULES, true))).toEqual(['a1', 'a2']);
		expect(ids(burstOf(group, 'b2', RULES, true))).toEqual(['b1', 'b2']);
		expect(ids(burstOf(group, 'a1', RULES, true))).toBe('notLast');
	});

	it('orders by the messages own time, and same-time messages as the service listed them', () => {
		const tied = timeline([
			{ id: 'x', at: 0 },
			{ id: 'y', at: 0 },
			{ id: 'z', at: 1 },
		]);
		expect(ids(burstOf(tied, 'z', RULES, true))).toEqual(['x', 'y', 'z']);
	});

	it('asks for older messages while the chain may reach beyond the page, not when an older message is far enough back', () => {
		const page = timeline([
			{ id: 'a', at: 0 },
			{ id: 'b', at: 2 },
		]);
		expect(burstOf(page, 'b', RULES, false)).toEqual({ kind: 'needOlder' });
		const bounded = timeline([
			{ id: 'other', at: -10, from: 'bob' },
			{ id: 'a', at: 0 },
			{ id: 'b', at: 2 },
		]);
		expect(ids(burstOf(bounded, 'b', RULES, false))).toEqual(['a', 'b']);
	});
});
