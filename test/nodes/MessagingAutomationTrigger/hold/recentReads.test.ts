import { afterEach, describe, expect, it, vi } from 'vitest';

import {
	keptReads,
	ranSince,
	recentRead,
	remember,
	type KnownRead,
} from '../../../../nodes/MessagingAutomationTrigger/hold/recentReads';
import type { ConversationRead } from '../../../../nodes/shared/conversation/reader';

/*
 * The last read of each conversation is kept a minute, the one copy in the process. Time here is
 * the fake timers' (monotonic clock and n8n's sleep), moved by hand; the module is this file's own
 * (vitest.config.mts), so it counts only what the test kept.
 */

const known = (conversationId: string): KnownRead => ({
	read: { conversationId, timeline: [], reads: 1 } as unknown as ConversationRead,
	asOf: 0,
	complete: true,
	ran: new Map(),
});

afterEach(() => void vi.useRealTimers());

describe('recent reads', () => {
	it('are all let go a minute after a spike, with no delivery after it', async () => {
		vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
		for (let index = 0; index < 300; index++) remember(`spike-${index}`, known(`c${index}`));
		expect(keptReads()).toBe(300);
		await vi.advanceTimersByTimeAsync(30_000);
		remember('late', known('late'));
		await vi.advanceTimersByTimeAsync(31_000);
		// The spike's reads are older than a minute; the one kept 31 s ago stays.
		expect(keptReads()).toBe(1);
		expect(recentRead('late')).toBeDefined();
		await vi.advanceTimersByTimeAsync(30_000);
		expect(keptReads()).toBe(0);
	});
});

describe('the bursts a kept read found closed', () => {
	/** A read showing `ids`, which found `ran` closed (identity → the message that started its run). */
	const showing = (ids: string[], ran: Array<[string, string | undefined]> = []): KnownRead => ({
		...known('c'),
		read: { conversationId: 'c', timeline: ids.map((id) => ({ id })), reads: 1 } as never,
		ran: new Map(ran),
	});

	it('carry on to the next read while it shows or the desk holds their first message, not who started them', () => {
		const before = showing(
			['m1', 'm2', 'm3', 'm5'],
			[
				['m1', 'm1'],
				['m2,m3', 'm3'],
				['m4', 'm4'],
				['m5,m6', undefined],
			],
		);
		// m1 left the read and is held no more; m2 and m5 are still shown; m4, not saved yet, is held.
		const next = ranSince(showing(['m2', 'm3', 'm5']).read, before, new Set(['m4']));
		// Without their starters: a later read lets a copy of any of their deliveries run at once.
		expect([...next]).toEqual([
			['m2,m3', undefined],
			['m4', undefined],
			['m5,m6', undefined],
		]);
	});

	it('find a first message whose id has a comma in it', () => {
		const before = showing(
			[],
			[
				['a,b,c', 'c'],
				['x,b', 'b'],
			],
		);
		expect([...ranSince(showing(['b', 'c']).read, before, new Set(['a,b'])).keys()]).toEqual([
			'a,b,c',
		]);
	});

	it('are at most one per message shown or held, the newest kept', () => {
		// A late upload's bursts, each run again with one more message.
		const before = showing(
			['m1', 'm2', 'm3', 'm4'],
			[
				['m1', 'm1'],
				['m1,m2', 'm2'],
				['m1,m2,m3', 'm3'],
				['m1,m2,m3,m4', undefined],
			],
		);
		const next = ranSince(showing(['m1']).read, before, new Set(['m2']));
		expect([...next.keys()]).toEqual(['m1,m2,m3', 'm1,m2,m3,m4']);
		expect(ranSince(showing(['m3']).read, undefined, new Set())).toEqual(new Map());
	});
});
