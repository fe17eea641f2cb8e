import { EARLIEST_RETRY_MS } from '../../shared/conversation/deliveryTiming';
import type { RecentEvent, TriggerState } from '../state';

export const DEFAULT_DEDUPE_WINDOW = 1000;
export const MAX_DEDUPE_WINDOW = 10_000;

/*
 * Delivery is at-least-once (spec: Delivery 1): an event id comes again after a retry, a resend,
 * or a captured delivery replayed while its signature is still valid. An event counts as seen
 * once its delivery is settled without a run (answered here), or once it was handed to n8n for a
 * run; but n8n may fail to record that run (a locked database, Redis down in queue mode) and
 * answer 500, and the service then sends the event again. So a handed-over event is seen only by
 * copies sent before the service could have retried that attempt (its `webhook-timestamp`, plus
 * the earliest retry's 24 s): a later attempt means the service got no 2xx for it, and is handled
 * anew; the run's claim (runClaim.ts, in the store
 * every process shares) passes nothing on if the run was recorded after all. Two layers:
 *
 * - A claim in this process's memory, taken synchronously before anything is awaited, so
 *   concurrent copies of one event handled by this process start exactly one execution. n8n
 *   loads static data when a request arrives and saves it after the handler returns, with a
 *   database round trip in between: two concurrent copies both read a window without the id,
 *   and the later save overwrites the earlier one. The claim closes that gap; static data cannot.
 * - The window in static data, which survives restarts and is shared (last writer wins) between
 *   webhook processes: best effort across processes, where the run's claim is the guarantee. n8n
 *   2.40.7 does not even save it for a delivery that starts a run (WorkflowRunner wraps the same
 *   data in a second Workflow, whose changed flag is reset before the save: perf-5, 2026-11-28),
 *   only for one settled without a run; the claim alone covers a copy of a run's delivery.
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

/** When a claim was taken, and the attempt that handed its run to n8n (undefined: settled here). */
interface Claim {
	at: number;
	handedAttempt?: number;
}

const claims = new Map<string, Claim>();

function dropOldClaims(now: number): void {
	for (const [oldest, claim] of claims) {
		if (claim.at > now - RETENTION_MS && claims.size < MAX_CLAIMS) break;
		claims.delete(oldest);
	}
}

/**
 * Whether what is known of an event makes the attempt sent at `sentAt` a copy: settled, or sent
 * sooner after the attempt that handed its run over than the service retries (a copy the service
 * sent close behind it, or a replay).
 */
const covers = (handedAttempt: number | undefined, sentAt: number) =>
	handedAttempt === undefined || sentAt < handedAttempt + EARLIEST_RETRY_MS;

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
 * True when the attempt of `eventId` sent at `sentAt` (its `webhook-timestamp`) is a copy in this
 * scope (the workflow's node at one webhook URL); otherwise records it as handled by that attempt,
 * in memory and in the static data window, until settleEvent or forgetEvent says more.
 */
export function isDuplicateEvent(
	scope: string,
	state: TriggerState,
	eventId: string,
	sentAt: number,
	size: number,
	now: number,
): boolean {
	const key = `${scope}\n${eventId}`;
	dropOldClaims(now);
	const claim = claims.get(key);
	const recent = state.recentEvents(now).filter(([, at]) => at > now - RETENTION_MS);
	const stored = recent.find(([id]) => id === eventId);
	if ((claim && covers(claim.handedAttempt, sentAt)) || (stored && covers(stored[2], sentAt)))
		return true;
	claims.delete(key);
	claims.set(key, { at: now, handedAttempt: sentAt });
	const others = recent.filter(([id]) => id !== eventId);
	state.setRecentEvents(trimWindow([...others, [eventId, now, sentAt]], size, now));
	return false;
}

/** The event's delivery was settled here without a run: every later copy is one. */
export function settleEvent(scope: string, state: TriggerState, eventId: string): void {
	const claim = claims.get(`${scope}\n${eventId}`);
	if (claim) claim.handedAttempt = undefined;
	state.setRecentEvents(
		state
			.recentEvents(Date.now())
			.map((event): RecentEvent => (event[0] === eventId ? [event[0], event[1]] : event)),
	);
}

/** Forgets `eventId` in this scope, so that the service's next delivery of it is handled anew. */
export function forgetEvent(scope: string, state: TriggerState, eventId: string): void {
	claims.delete(`${scope}\n${eventId}`);
	const now = Date.now();
	state.setRecentEvents(state.recentEvents(now).filter(([id]) => id !== eventId));
}
