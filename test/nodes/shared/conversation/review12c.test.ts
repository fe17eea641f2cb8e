import { describe, expect, it } from 'vitest';

import type { BurstRules } from '../../../../nodes/shared/conversation/bursts';
import { burstPauseAt } from '../../../../nodes/shared/conversation/takeover';
import { timelineOf, type TimelineMessage } from '../../../../nodes/shared/conversation/timeline';

/*
 * Review 12c (helper-71): burstPauseAt after R12-4 and R12-5 (the burst's close, its Longest Wait
 * too, and the phone's lag), at its edges. All hold; the findings of this review are the
 * simulator's (MessagingAutomationTrigger/simulator/review12c.test.ts, R12b-1 to R12b-3).
 */

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const RULES: BurstRules = { quietMs: 10_000, longestMs: 30_000 };

/** A one-to-one chat, `at` in seconds after T0; `me` the account's. */
function chat(entries: Array<{ id: string; at: number; me?: boolean }>): TimelineMessage[] {
	const messages = entries.map(({ id, at, me = false }) => ({
		id,
		conversation_id: 'c1',
		from: { phone: 'alice' },
		from_me: me,
		text: id,
		timestamp: new Date(T0 + at * 1000).toISOString(),
	}));
	return timelineOf({ messages: messages.reverse() });
}

/** Where the burst [m1 m2] (m2 at 24 s) is judged with the account's `own` at `ownAt` s. */
const judgedAt = (ownAt: number, lagMs = 0, m2At = 24) =>
	burstPauseAt(
		chat([
			{ id: 'm1', at: 0 },
			{ id: 'm2', at: m2At },
			{ id: 'own', at: ownAt, me: true },
		]),
		['m1', 'm2'],
		RULES,
		lagMs,
	);

describe('review 12c: burstPauseAt (holds)', () => {
	it("stops at the burst's Longest Wait, inside its last message's quiet window", () => {
		// Closes at 30 s (first + Longest Wait), not at 34 s (last + quiet window).
		expect(judgedAt(29.999)).toBe('own');
		expect(judgedAt(30)).toBe('m2');
		expect(judgedAt(33)).toBe('m2');
	});

	it("shifts the window by the delivery's lag, not the gap while the phone was offline", () => {
		// m2 uploaded 60 s late: its window on the service's clock is 84 s to 90 s (+ Longest Wait 30 s).
		expect(judgedAt(25, 60_000)).toBe('own');
		expect(judgedAt(50, 60_000)).toBe('m2');
		expect(judgedAt(85, 60_000)).toBe('own');
		expect(judgedAt(90, 60_000)).toBe('m2');
	});

	it('judges at the last message with no window (grouping off) and a negative lag (a phone ahead)', () => {
		expect(
			burstPauseAt(
				chat([
					{ id: 'm1', at: 0 },
					{ id: 'own', at: 1, me: true },
				]),
				['m1'],
				{ quietMs: 0, longestMs: 0 },
			),
		).toBe('m1');
		expect(judgedAt(25, -5000)).toBe('own');
		expect(judgedAt(31, -5000)).toBe('m2');
	});

	it('takes the union of both readings of a lag shorter than the window (a late upload or a clock behind)', () => {
		// Lag 3 s: by stamps the window ends at 30 s, shifted at 33 s. A clock 3 s behind would put a
		// command stamped 32 s after the service's close; the delivery cannot tell the two apart.
		expect(judgedAt(32, 3000)).toBe('own');
		expect(judgedAt(33, 3000)).toBe('m2');
	});
});
