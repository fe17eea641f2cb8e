import { describe, expect, it } from 'vitest';

import type { BurstRules } from '../../../../nodes/shared/conversation/bursts';
import { planHeld } from '../../../../nodes/shared/conversation/heldPlan';
import {
	toTimelineMessage,
	type TimelineMessage,
} from '../../../../nodes/shared/conversation/timeline';

const RULES: BurstRules = { quietMs: 3000, longestMs: 10_000 };
const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const at = (seconds: number) => T0 + seconds * 1000;

function held(entries: Array<{ id: string; at: number; from?: string }>): TimelineMessage[] {
	return entries.map(
		({ id, at: seconds, from = 'alice' }) =>
			toTimelineMessage({
				id,
				conversation_id: 'chat',
				from: { phone: from },
				text: id,
				timestamp: new Date(at(seconds)).toISOString(),
			}) as TimelineMessage,
	);
}

describe('planHeld', () => {
	it('hands earlier messages to a later one of the same burst and reads once, when the last one may close', () => {
		const plan = planHeld(
			held([
				{ id: 'c', at: 2 },
				{ id: 'a', at: 0 },
				{ id: 'b', at: 1 },
			]),
			RULES,
			at(2),
		);
		expect(plan.handedOver.sort()).toEqual(['a', 'b']);
		expect(plan.readAt).toBe(at(5) + 1);
	});

	it('reads at the longest wait for a person who keeps typing, not a quiet window later', () => {
		const plan = planHeld(
			held(Array.from({ length: 5 }, (_, index) => ({ id: `m${index}`, at: index * 2 }))),
			RULES,
			at(8),
		);
		expect(plan.readAt).toBe(at(10));
	});

	it('reads at once when a held message is already past a cut, and keeps two people apart', () => {
		const plan = planHeld(
			held([
				{ id: 'a0', at: 0 },
				{ id: 'a1', at: 2 },
				{ id: 'a2', at: 11 },
				{ id: 'b0', at: 1, from: 'bob' },
			]),
			RULES,
			at(11),
		);
		// a1's quiet window has passed (a2 came 9 s later): read now; bob's message is nobody else's.
		expect(plan.handedOver).toEqual(['a0']);
		expect(plan.readAt).toBe(at(11));
	});
});
