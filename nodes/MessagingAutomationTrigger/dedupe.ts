import type { TriggerState } from './state';

export const DEFAULT_DEDUPE_WINDOW = 1000;
export const MAX_DEDUPE_WINDOW = 10_000;

/**
 * Delivery is at-least-once (spec: Delivery 1), so the same event id can arrive again after a
 * retry or a resend. Remembers the last `size` emitted ids; returns true when `eventId` is
 * already among them, otherwise records it. Bounded so static data, saved with the workflow,
 * stays small: 1,000 ids are about 30 KB.
 */
export function isDuplicateOrRecord(state: TriggerState, eventId: string, size: number): boolean {
	const recent = state.recentEventIds();
	if (recent.includes(eventId)) return true;
	const limit = Math.min(Math.max(1, Math.floor(size)), MAX_DEDUPE_WINDOW);
	state.setRecentEventIds([...recent, eventId].slice(-limit));
	return false;
}
