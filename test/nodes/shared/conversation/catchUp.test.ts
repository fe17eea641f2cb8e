import { describe, expect, it } from 'vitest';

import type { BurstRules } from '../../../../nodes/shared/conversation/bursts';
import {
	CATCH_UP_AFTER_MS,
	missedBursts,
	unansweredBursts,
	type CatchUpWindow,
} from '../../../../nodes/shared/conversation/catchUp';
import { timelineOf, type TimelineMessage } from '../../../../nodes/shared/conversation/timeline';

const RULES: BurstRules = { quietMs: 3000, longestMs: 10_000 };
const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const HOUR = 3_600_000;

/** Messages as get_messages answers them (newest first); `at` in seconds after T0. */
function timeline(
	entries: Array<{
		id: string;
		at: number;
		from?: string;
		me?: boolean;
		text?: string;
		quoted?: string;
	}>,
): TimelineMessage[] {
	const messages = entries.map(({ id, at, from = 'alice', me = false, text = id, quoted }) => ({
		id,
		conversation_id: 'chat',
		from: { phone: from },
		from_me: me,
		text,
		...(quoted ? { quoted_message_id: quoted } : {}),
		timestamp: new Date(T0 + at * 1000).toISOString(),
	}));
	return timelineOf({ messages: messages.reverse() });
}

/** The window of a catch-up made when the run's burst (written at 600 s) closed. */
const window = (extra: Partial<CatchUpWindow> = {}): CatchUpWindow => ({
	maxAgeMs: HOUR,
	since: T0 - HOUR,
	now: T0 + 604_000,
	phoneLagMs: 0,
	complete: true,
	answers: false,
	...extra,
});

const ids = (chat: TimelineMessage[], run: string[], extra?: Partial<CatchUpWindow>) =>
	missedBursts(chat, run, RULES, window(extra)).map((burst) =>
		burst.messages.map((entry) => entry.id),
	);

describe('missedBursts', () => {
	it("names the person's messages after the account's last one, before the run, as bursts by the trigger's rules", () => {
		const chat = timeline([
			{ id: 'answered', at: 0 },
			{ id: 'reply', at: 10, me: true },
			{ id: 'a1', at: 100 },
			{ id: 'a2', at: 101 },
			{ id: 'b', at: 300 },
			{ id: 'now', at: 600 },
		]);
		expect(ids(chat, ['now'])).toEqual([['a1', 'a2'], ['b']]);
	});

	it("names each member's bursts in a group, and none of the run's own messages", () => {
		const chat = timeline([
			{ id: 'bob', at: 100, from: 'bob' },
			{ id: 'dana', at: 101, from: 'dana' },
			{ id: 'run1', at: 598 },
			{ id: 'run2', at: 600 },
		]);
		expect(ids(chat, ['run1', 'run2'])).toEqual([['bob'], ['dana']]);
	});

	it('leaves a burst closed less than CATCH_UP_AFTER_MS ago: its run may be held still, or its delivery due again', () => {
		const chat = timeline([
			{ id: 'recent', at: 400 },
			{ id: 'now', at: 600 },
		]);
		const closed = T0 + 400_000 + RULES.quietMs + 1;
		expect(ids(chat, ['now'], { now: closed + CATCH_UP_AFTER_MS - 1 })).toEqual([]);
		expect(ids(chat, ['now'], { now: closed + CATCH_UP_AFTER_MS })).toEqual([['recent']]);
	});

	it("measures CATCH_UP_AFTER_MS on the service's clock: a phone 40 s behind (or uploading) has its burst closed 40 s later", () => {
		const chat = timeline([
			{ id: 'recent', at: 400 },
			{ id: 'now', at: 600 },
		]);
		const closed = T0 + 400_000 + RULES.quietMs + 1 + 40_000;
		const lagging = { phoneLagMs: 40_000 };
		expect(ids(chat, ['now'], { ...lagging, now: closed + CATCH_UP_AFTER_MS - 1 })).toEqual([]);
		expect(ids(chat, ['now'], { ...lagging, now: closed + CATCH_UP_AFTER_MS })).toEqual([
			['recent'],
		]);
	});

	it('leaves messages older than the limit or written before the activation, also out of a burst they share', () => {
		const chat = timeline([
			{ id: 'before', at: 100 },
			{ id: 'after', at: 102 },
			{ id: 'now', at: 600 },
		]);
		expect(ids(chat, ['now'], { since: T0 + 101_000 })).toEqual([['after']]);
		expect(ids(chat, ['now'], { maxAgeMs: 503_000 })).toEqual([['after']]);
		expect(ids(chat, ['now'], { since: T0 + 200_000 })).toEqual([]);
	});

	it('leaves a chain that may reach further back than an incomplete read', () => {
		const chat = timeline([
			{ id: 'first read', at: 100 },
			{ id: 'now', at: 600 },
		]);
		expect(ids(chat, ['now'], { complete: false })).toEqual([]);
		expect(ids(chat, ['now'])).toEqual([['first read']]);
	});

	it('leaves, with Pass Answers to Send and Wait, a message that could answer a question in the chat', () => {
		const question =
			'Approve? https://n8n.example.com/webhook-waiting/123?chat=1&approved=true&signature=abc';
		const chat = timeline([
			{ id: 'question', at: 0, me: true, text: question },
			{ id: 'yes', at: 100, text: 'yes' },
			{ id: 'now', at: 600 },
		]);
		expect(ids(chat, ['now'])).toEqual([['yes']]);
		expect(ids(chat, ['now'], { answers: true })).toEqual([]);
	});

	it('takes an account message for the answer to the burst it follows, not to one the person wrote before that (R5-4)', () => {
		const chat = timeline([
			{ id: 'a1', at: 100 },
			{ id: 'a2', at: 101 },
			// Met by silence, the person writes again; the bot answers that.
			{ id: 'b', at: 160 },
			{ id: 'reply', at: 170, me: true },
			{ id: 'c', at: 300 },
			{ id: 'reply-c', at: 310, me: true },
			{ id: 'now', at: 600 },
		]);
		expect(ids(chat, ['now'])).toEqual([['a1', 'a2']]);
	});

	it("in a group, takes an account message for the answer to each member's burst it follows", () => {
		const chat = timeline([
			{ id: 'bob', at: 100, from: 'bob' },
			{ id: 'dana', at: 101, from: 'dana' },
			{ id: 'reply', at: 110, me: true },
			{ id: 'bob2', at: 200, from: 'bob' },
			{ id: 'bob3', at: 300, from: 'bob' },
			{ id: 'reply3', at: 310, me: true },
			{ id: 'now', at: 600 },
		]);
		expect(ids(chat, ['now'])).toEqual([['bob2']]);
	});

	it('names nothing when the run is not in the read', () => {
		expect(ids(timeline([{ id: 'a', at: 100 }]), ['elsewhere'])).toEqual([]);
	});
});

describe('unansweredBursts (the Catch-Up poll)', () => {
	const tail = (chat: TimelineMessage[], extra?: Partial<CatchUpWindow>) =>
		unansweredBursts(chat, RULES, window(extra)).map((burst) =>
			burst.messages.map((entry) => entry.id),
		);

	it("names the bursts after the account's last message, closed 3 minutes before, by the trigger's rules", () => {
		const chat = timeline([
			{ id: 'answered', at: 0 },
			{ id: 'reply', at: 10, me: true },
			{ id: 'a1', at: 100 },
			{ id: 'a2', at: 101 },
			{ id: 'b', at: 300 },
			{ id: 'young', at: 500 },
		]);
		// At 604 s, `young`'s burst closed 101 s before: it may still be the trigger's.
		expect(tail(chat)).toEqual([['a1', 'a2'], ['b']]);
	});

	it('names a burst the person followed with another before the account answered, though the account wrote last (R5-4)', () => {
		const chat = timeline([
			{ id: 'a1', at: 100 },
			{ id: 'b', at: 160 },
			{ id: 'reply', at: 170, me: true },
		]);
		expect(tail(chat)).toEqual([['a1']]);
	});

	it('names nothing when the account answered last, or before the floor', () => {
		expect(
			tail(
				timeline([
					{ id: 'q', at: 100 },
					{ id: 'r', at: 110, me: true },
				]),
			),
		).toEqual([]);
		expect(tail(timeline([{ id: 'q', at: 100 }]), { since: T0 + 200_000 })).toEqual([]);
	});

	it('leaves a chain that may reach further back than the read', () => {
		const chat = timeline([
			{ id: 'first read', at: 100 },
			{ id: 'q', at: 101 },
		]);
		expect(tail(chat, { complete: false })).toEqual([]);
	});
});
