import type { RecentEvent, TriggerState } from './state';

export const DEFAULT_DEDUPE_WINDOW = 1000;
export const MAX_DEDUPE_WINDOW = 10_000;

/*
 * Delivery is at-least-once (spec: Delivery 1): an event id comes again after a retry, a resend,
 * or a captured delivery replayed while its signature is still valid. Two layers:
 *
 * - A claim in this process's memory, taken synchronously before anything is awaited, so
 *   concurrent copies of one event handled by this process start exactly one execution. n8n
 *   loads static data when a request arrives and saves it after the handler returns, with a
 *   database round trip in between: two concurrent copies both read a window without the id,
 *   and the later save overwrites the earlier one. The claim closes that gap; static data cannot.
 * - The window in static data, which survives restarts and is shared (last writer wins) between
 *   webhook processes: best effort across processes, where the idempotency key of the reply is
 *   the guarantee.
 *
 * Both forget by time as well as by count. The service retries a failed delivery for about 23 h
 * (30 s … 12 h, ±20 % jitter), so an id is kept 28 h at most. An id is never dropped for room
 * while younger than the replay guard: a delivery signed with a timestamp up to 300 s off either
 * way verifies for up to ten minutes, however many newer events came in between.
 */
export const RETENTION_MS = 28 * 60 * 60_000;
export const REPLAY_GUARD_MS = 10 * 60_000;
/** Hard caps, for bursts of more events than fit the window within the replay guard. */
const MAX_STORED = 2 * MAX_DEDUPE_WINDOW;
const MAX_CLAIMS = 100_000;

const claims = new Map<string, number>();

/** True the first time `key` is claimed within the retention; oldest claims go first. */
function claim(key: string, now: number): boolean {
	for (const [oldest, at] of claims) {
		if (at > now - RETENTION_MS && claims.size < MAX_CLAIMS) break;
		claims.delete(oldest);
	}
	if (claims.has(key)) return false;
	claims.set(key, now);
	return true;
}

/** The window after recording an event: within the retention, `size` entries plus any younger than the replay guard. */
export function trimWindow(events: RecentEvent[], size: number, now: number): RecentEvent[] {
	const limit = Math.min(Math.max(1, Math.floor(size)), MAX_DEDUPE_WINDOW);
	const kept = events.filter(([, at]) => at > now - RETENTION_MS);
	let drop = Math.max(0, kept.length - limit);
	while (drop > 0 && kept.length - drop < MAX_STORED && kept[drop - 1][1] > now - REPLAY_GUARD_MS)
		drop--;
	return kept.slice(Math.max(drop, kept.length - MAX_STORED));
}

/**
 * True when `eventId` was seen before in this scope (the workflow's node at one webhook URL),
 * otherwise records it in memory and in the static data window.
 */
export function isDuplicateEvent(
	scope: string,
	state: TriggerState,
	eventId: string,
	size: number,
	now: number,
): boolean {
	const claimed = claim(`${scope}\n${eventId}`, now);
	const recent = state.recentEvents(now).filter(([, at]) => at > now - RETENTION_MS);
	if (!claimed || recent.some(([id]) => id === eventId)) return true;
	state.setRecentEvents(trimWindow([...recent, [eventId, now]], size, now));
	return false;
}

/** Forgets `eventId` in this scope, so that the service's next delivery of it is handled anew. */
export function forgetEvent(scope: string, state: TriggerState, eventId: string): void {
	claims.delete(`${scope}\n${eventId}`);
	const now = Date.now();
	state.setRecentEvents(state.recentEvents(now).filter(([id]) => id !== eventId));
}
