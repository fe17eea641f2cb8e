import { afterEach, describe, expect, it, vi } from 'vitest';

import {
	keptReads,
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
