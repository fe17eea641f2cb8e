import { describe, expect, it } from 'vitest';

import type { BurstRules } from '../../../../nodes/shared/conversation/bursts';
import { carriedRun } from '../../../../nodes/shared/conversation/carriedPlan';
import type { HeldMessage } from '../../../../nodes/shared/conversation/heldPlan';
import {
	toTimelineMessage,
	type TimelineMessage,
} from '../../../../nodes/shared/conversation/timeline';

/*
 * `ran` keeps a burst a read ran closed for the reads after it (recentReads.ts: ranSince), by its
 * identity: its messages. A phone uploading what it wrote offline (queued a minute after its
 * timestamps) keeps its burst open a quiet window past its latest save; a message stamped between
 * the burst's, saved late, makes another burst, which the earlier run must not close.
 */

const RULES: BurstRules = { quietMs: 3000, longestMs: 10_000 };
const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const at = (seconds: number) => T0 + seconds * 1000;

/** Alice's message `id`, typed `second` s after T0 (the phone's timestamp). */
const typed = (id: string, second: number): TimelineMessage =>
	toTimelineMessage({
		id,
		conversation_id: 'chat',
		from: { phone: 'alice' },
		from_me: false,
		text: id,
		timestamp: new Date(at(second)).toISOString(),
	}) as TimelineMessage;

const [m1, m2, m3] = [typed('m1', 0), typed('m2', 1), typed('m3', 2)];
/** m1 and m3 held, queued a minute late: an upload, its window open until 64 s. */
const held: HeldMessage[] = [
	{ message: m1, deadline: 0, queuedAt: at(60) },
	{ message: m3, deadline: 0, queuedAt: at(61) },
];
const read = (...timeline: TimelineMessage[]) => ({ timeline, asOf: at(62), complete: true });
const ids = (verdict: ReturnType<typeof carriedRun>) => verdict?.messages.map((m) => m.id);

describe('carriedRun', () => {
	it('leaves an upload open until its window passes, unless a read ran the burst', () => {
		expect(carriedRun(read(m1, m3), held, 'm1', RULES, new Map())).toBeUndefined();
		const ran = new Map([['m1,m3', 'm3']]);
		expect(ids(carriedRun(read(m1, m3), held, 'm1', RULES, ran))).toEqual(['m1', 'm3']);
	});

	it('does not close a burst a late message joined: its identity differs (R82b-2)', () => {
		const ran = new Map([['m1,m3', 'm3']]);
		expect(carriedRun(read(m1, m2, m3), held, 'm1', RULES, ran)).toBeUndefined();
		const same = new Map([['m1,m2,m3', 'm3']]);
		expect(ids(carriedRun(read(m1, m2, m3), held, 'm1', RULES, same))).toEqual(['m1', 'm2', 'm3']);
	});
});
