import { describe, expect, it } from 'vitest';

import type { BurstRules } from '../../../../nodes/shared/conversation/bursts';
import { unansweredBursts } from '../../../../nodes/shared/conversation/catchUp';
import {
	burstPauseAt,
	pauseAt,
	type TakeoverRules,
} from '../../../../nodes/shared/conversation/takeover';
import { timelineOf, type TimelineMessage } from '../../../../nodes/shared/conversation/timeline';

/*
 * Review 12 (helper-70): what holds in this session's shared conversation changes, checked where
 * it is cheap: burstPauseAt (T12-1, T12-2) in group chats and at its two ends, and catchUp.ts
 * `answered` (T12-3) with a burst closed by its Longest Wait. The findings are engine tests:
 * MessagingAutomationTrigger/catchUp/review12.test.ts (R12-1 to R12-3) and
 * MessagingAutomationTrigger/simulator/review12b.test.ts (R12-4, R12-5).
 */

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const HOUR = 3_600_000;
const QUIET_MS = 5000;
const TAKEOVER: TakeoverRules = {
	pauseCommand: '/bot off',
	resumeCommand: '/bot on',
	handoverWords: ['human'],
	resumeAfterMs: 12 * HOUR,
};

/** Messages as get_messages answers them (newest first); `at` in seconds after T0. */
function timeline(
	entries: Array<{ id: string; at: number; from?: string; me?: boolean; text?: string }>,
): TimelineMessage[] {
	const messages = entries.map(({ id, at, from = 'alice', me = false, text = id }) => ({
		id,
		conversation_id: 'group',
		from: { phone: from },
		from_me: me,
		text,
		timestamp: new Date(T0 + at * 1000).toISOString(),
	}));
	return timelineOf({ messages: messages.reverse() });
}

/** Whether the burst whose last message is `last` is paused, as the trigger judges it. */
const paused = (chat: TimelineMessage[], last: string) =>
	pauseAt(chat, burstPauseAt(chat, [last], { quietMs: QUIET_MS, longestMs: 30_000 }), TAKEOVER)
		.paused;

describe('review 12: burstPauseAt (holds)', () => {
	it("pauses both members' bursts of a group for the account's command typed between their messages", () => {
		const chat = timeline([
			{ id: 'a1', at: 0, from: 'ann' },
			{ id: 'b1', at: 1, from: 'ben' },
			{ id: 'off', at: 2, me: true, text: '/bot off' },
			{ id: 'b2', at: 30, from: 'ben' },
		]);
		expect(paused(chat, 'a1')).toBe(true);
		expect(paused(chat, 'b1')).toBe(true);
	});

	it("looks past another member's message, not past the author's own next one nor past the quiet window", () => {
		const chat = (offAt: number, next: string) =>
			timeline([
				{ id: 'a1', at: 0, from: 'ann' },
				{ id: 'x', at: 1, from: next },
				{ id: 'off', at: offAt, me: true, text: '/bot off' },
			]);
		expect(paused(chat(3, 'ben'), 'a1')).toBe(true);
		// T12-1: the author wrote again first; T12-2: typed after the quiet window.
		expect(paused(chat(3, 'ann'), 'a1')).toBe(false);
		expect(paused(chat(5.001, 'ben'), 'a1')).toBe(false);
	});

	it('judges at the newest of several account messages within the window: a resume after a pause ends it', () => {
		const chat = timeline([
			{ id: 'a1', at: 0 },
			{ id: 'off', at: 1, me: true, text: '/bot off' },
			{ id: 'on', at: 3, me: true, text: '/bot on' },
		]);
		expect(paused(chat, 'a1')).toBe(false);
	});
});

describe('review 12: answered, a burst closed by its Longest Wait (holds)', () => {
	const rules: BurstRules = { quietMs: QUIET_MS, longestMs: 10_000 };
	const unanswered = (chat: TimelineMessage[]) =>
		unansweredBursts(chat, rules, {
			maxAgeMs: HOUR,
			since: T0 - HOUR,
			now: T0 + 600_000,
			phoneLagMs: 0,
			complete: true,
			answers: false,
		}).map((burst) => burst.messages.map((entry) => entry.id));

	it("takes the bot's answer after the Longest Wait close, inside the last message's quiet window, for an answer", () => {
		// Closed at 10 s (its Longest Wait), not at 8 s + the quiet window: the bot answered at 11 s.
		const chat = timeline([
			{ id: 'm1', at: 0 },
			{ id: 'm2', at: 4 },
			{ id: 'm3', at: 8 },
			{ id: 'bot', at: 11, me: true },
		]);
		expect(unanswered(chat)).toEqual([]);
	});

	it('takes an account message before that close for an answer too (T12-3 reverted: R12-1)', () => {
		const chat = timeline([
			{ id: 'm1', at: 0 },
			{ id: 'm2', at: 4 },
			{ id: 'm3', at: 8 },
			{ id: 'own', at: 9, me: true },
		]);
		expect(unanswered(chat)).toEqual([]);
	});
});
