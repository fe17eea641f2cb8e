import type { HandBack, TriggerState } from '../state';
import { RETENTION_MS } from './dedupe';

/*
 * When this node first handed a delivery of an event back (503, to be sent again): that attempt's
 * `webhook-timestamp`, the service's own time. The service retries a failed attempt 30 s and then
 * 2 min later (±20 %), so a delivery of the event sent GIVE_UP_AFTER_MS or more after it is the
 * service's third attempt or later, whatever the event's `created_at` says: a first attempt the
 * service sends minutes late (a paused endpoint, a backlog) has no hand-back before it, and goes
 * back (deliveryContext.ts).
 *
 * The record lives in static data, which every webhook process and a restart see: a webhook has no
 * other store every process shares (n8n's processed-data store is an execution's alone). n8n
 * loads static data when a request arrives and saves it whole when it is answered, the last save
 * winning, so deliveries held at the same moment (a burst's) overwrite each other's entries. This
 * process therefore keeps the entries it wrote or saw and writes them back whenever static data
 * lacks one. The record only grows (an event's entry is written once and never changed), so what
 * the process keeps and what static data holds never contradict each other: their union is the
 * record. An entry lost anyway (another process's save, and no write-back before the event comes
 * again) is written again by the event's next hand-back, later: a delivery gives up later, never
 * sooner.
 */

/** Events remembered at most: far more than go back within the service's retries. */
const MAX_KEPT = 2000;

/** Entries this process wrote or saw, by scope and event. */
const kept = new Map<string, HandBack>();

const keyOf = (scope: string, eventId: string) => `${scope}\n${eventId}`;

/** The record at `scope`: static data's entries and this process's (an event's earliest), oldest first. */
function record(scope: string, state: TriggerState, now: number): HandBack[] {
	const byEvent = new Map<string, HandBack>();
	const ours = [...kept].filter(([key]) => key.startsWith(`${scope}\n`)).map(([, entry]) => entry);
	for (const entry of [...state.handBacks(), ...ours]) {
		const known = byEvent.get(entry[0]);
		if (entry[2] > now - RETENTION_MS && (!known || known[1] > entry[1]))
			byEvent.set(entry[0], entry);
	}
	return [...byEvent.values()].sort((a, b) => a[2] - b[2]).slice(-MAX_KEPT);
}

/** Keeps `entries` in this process, and writes them to static data when it lacks one of them. */
function keep(scope: string, state: TriggerState, entries: HandBack[]): void {
	const stored = new Set(state.handBacks().map(([id]) => id));
	if (entries.some(([id]) => !stored.has(id))) state.setHandBacks(entries);
	for (const entry of entries) kept.set(keyOf(scope, entry[0]), entry);
	for (const oldest of kept.keys()) {
		if (kept.size <= MAX_KEPT) break;
		kept.delete(oldest);
	}
}

/** Service time (`webhook-timestamp`, ms) of the first delivery of `eventId` this node handed back at `scope`. */
export function firstHandBackOf(
	scope: string,
	state: TriggerState,
	eventId: string,
	now: number,
): number | undefined {
	const entries = record(scope, state, now);
	keep(scope, state, entries);
	return entries.find(([id]) => id === eventId)?.[1];
}

/** Records that the delivery of `eventId` sent at `sentAt` (service time) went back at `now`, unless one did before. */
export function noteHandBack(
	scope: string,
	state: TriggerState,
	eventId: string,
	sentAt: number,
	now: number,
): void {
	const entries = record(scope, state, now);
	if (!entries.some(([id]) => id === eventId)) entries.push([eventId, sentAt, now]);
	keep(scope, state, entries.slice(-MAX_KEPT));
}
