import type { TriggerState } from '../state';
import { RETENTION_MS } from './dedupe';

/*
 * How many of an event's deliveries this node handed back (503, to be sent again). The service's
 * own times cannot tell its third attempt from a first attempt it sent late (a paused endpoint, a
 * backlog: `created_at` minutes before `webhook-timestamp`), so only attempts this node handed
 * back count as the retries after which a held delivery gives up (deliveryContext.ts). Two
 * copies, as with dedupe.ts: this process's memory, exact for the deliveries it held at once
 * (each request saves its own copy of static data, the last save wins), and static data, which
 * other webhook processes and a restart see. The larger count counts; a hand-back lost to a
 * stop or an overwritten save counts as none: a delivery gives up later, never sooner.
 */

/** Events remembered at most: far more than go back within the service's retries. */
const MAX_KEPT = 2000;

const counted = new Map<string, { count: number; at: number }>();

function stored(state: TriggerState, eventId: string, now: number): number {
	const entry = state.handBacks().find(([id, , at]) => id === eventId && at > now - RETENTION_MS);
	return entry?.[1] ?? 0;
}

function inMemory(key: string, now: number): number {
	const entry = counted.get(key);
	return entry && entry.at > now - RETENTION_MS ? entry.count : 0;
}

/** How many deliveries of `eventId` this node handed back at `scope`. */
export function handBacksOf(
	scope: string,
	state: TriggerState,
	eventId: string,
	now: number,
): number {
	return Math.max(inMemory(`${scope}\n${eventId}`, now), stored(state, eventId, now));
}

/** Records that a delivery of `eventId` was handed back at `now`. */
export function noteHandBack(
	scope: string,
	state: TriggerState,
	eventId: string,
	now: number,
): void {
	const count = handBacksOf(scope, state, eventId, now) + 1;
	const key = `${scope}\n${eventId}`;
	counted.delete(key);
	counted.set(key, { count, at: now });
	for (const oldest of counted.keys()) {
		if (counted.size <= MAX_KEPT) break;
		counted.delete(oldest);
	}
	const kept = state.handBacks().filter(([id, , at]) => id !== eventId && at > now - RETENTION_MS);
	state.setHandBacks([...kept.slice(-(MAX_KEPT - 1)), [eventId, count, now]]);
}
