import { describe, expect, it } from 'vitest';

import { burstOf, type BurstRules } from '../../../../nodes/shared/conversation/bursts';
import type { HeldMessage } from '../../../../nodes/shared/conversation/heldPlan';
import {
	toTimelineMessage,
	type TimelineMessage,
} from '../../../../nodes/shared/conversation/timeline';
import {
	queuedAfterRun,
	uploadOpenUntil,
} from '../../../../nodes/shared/conversation/uploadWindow';

const RULES: BurstRules = { quietMs: 3000, longestMs: 10_000 };
const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const at = (seconds: number) => T0 + seconds * 1000;
const LATER = { complete: true, asOf: at(3600) };

/** Alice's messages, `at` in seconds after T0 (the phone's timestamps). */
function typed(...seconds: number[]): TimelineMessage[] {
	return seconds.map(
		(second, index) =>
			toTimelineMessage({
				id: `m${index + 1}`,
				conversation_id: 'chat',
				from: { phone: 'alice' },
				from_me: false,
				text: `m${index + 1}`,
				timestamp: new Date(at(second)).toISOString(),
			}) as TimelineMessage,
	);
}

/** The account's message at `second`. */
const ownAt = (second: number): TimelineMessage[] => [
	toTimelineMessage({
		id: 'own',
		conversation_id: 'chat',
		from: { phone: 'account' },
		from_me: true,
		text: 'On it',
		timestamp: new Date(at(second)).toISOString(),
	}) as TimelineMessage,
];

/** Held with their events queued at these times (seconds after T0). */
const heldAt = (messages: TimelineMessage[], queued: number[]): HeldMessage[] =>
	messages.map((message, index) => ({ message, deadline: 0, queuedAt: at(queued[index]) }));

function lastOf(timeline: TimelineMessage[]) {
	const verdict = burstOf(timeline, timeline[timeline.length - 1].id, RULES, LATER);
	if (verdict.kind !== 'last') throw new Error('burst not closed');
	return verdict;
}

describe('uploadOpenUntil', () => {
	it('closes the burst of a phone 60 s behind a quiet window after its last message was queued', () => {
		const timeline = typed(0, 1, 2);
		const until = uploadOpenUntil(
			lastOf(timeline),
			heldAt(timeline, [60, 61, 62]),
			RULES,
			at(3600),
		);
		expect(until).toBe(at(65) + 1);
	});

	it('waits a quiet window past the latest queued message of an upload, not past its timestamps', () => {
		// Written 1 s apart, uploaded 30 s later 0.1 s apart.
		const timeline = typed(0, 1, 2);
		const held = heldAt(timeline, [30, 30.1, 30.2]);
		expect(uploadOpenUntil(lastOf(timeline), held, RULES, at(3600))).toBe(at(33.2) + 1);
	});

	it('counts a message only the read shows no later than the read', () => {
		const timeline = typed(0, 2);
		const held = heldAt(timeline.slice(0, 1), [100]);
		expect(uploadOpenUntil(lastOf(timeline), held, RULES, at(101))).toBe(at(104) + 1);
	});

	it('counts a message after the last held one at the first read that showed it, not at its timestamp plus the lag (simulator finding J)', () => {
		// Written 50 ms apart, uploaded 1 s apart from 100 s: only the first held, the read at 102.5 s
		// shows three. The third may have been saved just before that read, so a fourth may follow.
		const timeline = typed(0, 0.05, 0.1).map((message) => ({ ...message, savedBy: at(102.5) }));
		const held = heldAt(timeline.slice(0, 1), [100]);
		expect(uploadOpenUntil(lastOf(timeline), held, RULES, at(102.5))).toBe(at(105.5) + 1);
	});

	it('counts a message after the last held one at its timestamp plus the lag for a phone that saves as it writes (finding F)', () => {
		// Queued 0.1 s after its timestamp: no upload. Another process holds the third, shown first by
		// the read at 5.6 s; it was saved by 0.7 s, so the burst closed a quiet window after that,
		// before the read (not 8.6 s, a quiet window past the read, after the first one's deadline).
		const timeline = typed(0, 0.3, 0.6).map((message) => ({ ...message, savedBy: at(5.6) }));
		const held = heldAt(timeline.slice(0, 1), [0.1]);
		expect(uploadOpenUntil(lastOf(timeline), held, RULES, at(5.6))).toBe(at(3.7) + 1);
	});

	it("keeps a burst the account's message closed open for the phone's lag past it (simulator findings K, A)", () => {
		// The account writes at 2.04 s; a phone 0.2 s behind stamps a message 2 s that it saves after.
		const timeline = [...typed(0, 1), ...ownAt(2.04)];
		const verdict = burstOf(timeline, 'm2', RULES, LATER);
		if (verdict.kind !== 'last') throw new Error('burst not closed');
		expect(verdict.closedBy).toBe('own_message');
		const held = heldAt(timeline.slice(0, 2), [0.2, 1.2]);
		expect(uploadOpenUntil(verdict, held, RULES, at(3600))).toBe(at(2.24));
		// A phone a minute behind (or uploading) is held as its upload is: a quiet window after its
		// last message was queued, as a phone whose clock is right, so that a message it still saves
		// stamped before the account's joins (finding C); never a minute.
		expect(uploadOpenUntil(verdict, heldAt(timeline.slice(0, 2), [60, 61]), RULES, at(3600))).toBe(
			at(64) + 1,
		);
		// A phone 2 s behind (under the 3 s quiet window) saves a message stamped just before the
		// account's 2 s after it: the burst waits its whole lag, not 1 s (S9-1).
		expect(uploadOpenUntil(verdict, heldAt(timeline.slice(0, 2), [2, 3]), RULES, at(3600))).toBe(
			at(4.04),
		);
	});

	it('says nothing for a phone whose clock is right', () => {
		const timeline = typed(0, 1);
		expect(uploadOpenUntil(lastOf(timeline), heldAt(timeline, [0, 1]), RULES, at(3600))).toBe(
			undefined,
		);
	});
});

describe('queuedAfterRun', () => {
	const timeline = typed(0, 1, 2);
	const burst = lastOf(timeline);

	it('takes a message queued after its burst closed for one saved late, when nothing else is known', () => {
		expect(queuedAfterRun(burst, heldAt(timeline.slice(0, 1), [60]), 'm1', undefined)).toBe(true);
	});

	it('never for a constant lag the other held messages, or those settled before, show', () => {
		expect(queuedAfterRun(burst, heldAt(timeline, [60, 61, 62]), 'm1', undefined)).toBe(false);
		expect(queuedAfterRun(burst, heldAt(timeline.slice(0, 1), [60]), 'm1', 59_900)).toBe(false);
	});

	it('still for a message queued long after the others of its burst', () => {
		expect(queuedAfterRun(burst, heldAt(timeline, [90, 1, 2]), 'm1', undefined)).toBe(true);
	});
});
