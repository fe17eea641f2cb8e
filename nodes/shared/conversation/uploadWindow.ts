import type { BurstRules, BurstVerdict } from './bursts';
import { SAVE_SLACK_MS } from './deliveryTiming';
import type { TimelineMessage } from './timeline';

/*
 * The service's clock against the phone's. A message's timestamp is the phone's; its event's
 * `created_at` (the queue time of a held delivery) is the service's. The smallest lag between the
 * two among a burst's held messages is the phone's own: a clock that runs behind, or an upload of
 * what it wrote offline. A constant lag never counts as late: the burst's quiet window and
 * longest wait are measured on the service's clock, each message shifted by that lag.
 */

type ClosedBurst = Extract<BurstVerdict, { kind: 'last' }>;

/** A held message as heldPlan.ts holds it: what is known of its queue time. */
interface Held {
	message: TimelineMessage;
	/** Service time the service queued its event, when known. */
	queuedAt?: number;
}

/** The held messages among `members` whose queue time is known, and each one's lag. */
function queueLags(held: readonly Held[], members: ReadonlySet<string>) {
	return held.flatMap(({ message, queuedAt }) =>
		members.has(message.id) && queuedAt !== undefined
			? [{ id: message.id, queuedAt, lag: queuedAt - message.at }]
			: [],
	);
}

/**
 * Until when (service time) `burst` stays open for messages still to come; undefined when no
 * later than it closed by the phone's timestamps (a read made since settles it). Each message counts from its queue time: held,
 * as its delivery said; else its timestamp plus the phone's lag, at most the first kept read that
 * showed it (`savedBy`, else `vouchedAsOf`: the read that shows it was made after it was saved).
 * One written after the burst's last held message is counted at that read, not at its timestamp
 * plus the lag: an upload saves one message after another, later ones more than the first one's
 * lag late, and only a read made a quiet window after it shows nothing followed. So a phone back
 * online, uploading what it wrote offline, keeps its burst open a quiet window past the latest of
 * them saved, and a phone a minute behind has its burst close a quiet window after its last message
 * was queued, as one whose clock is right. A burst the account's message closed (the service
 * stamps it) is closed once a read shows every message the phone stamped before it: its time plus
 * the phone's lag; an uploading phone's, not before its upload's window
 * passed too (a message saved later than that runs in a run of its own: finding C's limit).
 */
export function uploadOpenUntil(
	burst: ClosedBurst,
	held: readonly Held[],
	rules: BurstRules,
	vouchedAsOf: number,
): number | undefined {
	const queued = queueLags(held, new Set(burst.messages.map((message) => message.id)));
	const phoneLag = queued.length === 0 ? 0 : Math.min(...queued.map((entry) => entry.lag));
	// A phone queued within a quiet window of their timestamps saves as it writes: its unheld
	// messages were saved by their timestamps plus its lag, so another process's delivery, or a
	// lost one, lets a carried message start its burst's run by its deadline.
	const uploading = phoneLag > rules.quietMs;
	// A person's message stamped before the account's is saved by then plus the phone's lag, as its
	// held messages show it, up to a quiet window (past it the phone uploads, below). No lower cap:
	// a phone 2 s behind saves one stamped just before the account's 2 s after it (S9-1).
	const ownClose =
		burst.closedBy === 'own_message'
			? burst.closedAt + Math.min(Math.max(0, phoneLag), rules.quietMs)
			: undefined;
	// An uploading phone may still save a message stamped before the account's: like any upload,
	// its burst waits a quiet window past the latest of its messages saved (finding C).
	if (ownClose !== undefined && !uploading) return ownClose;
	if (queued.length === 0) return undefined;
	const queuedAt = new Map(queued.map((entry) => [entry.id, entry.queuedAt]));
	const lastHeld = Math.max(
		...burst.messages.map((message, i) => (queuedAt.has(message.id) ? i : -1)),
	);
	const estimates = burst.messages.map((message, position) => {
		const savedBy = message.savedBy ?? vouchedAsOf;
		return (
			queuedAt.get(message.id) ??
			(uploading && position > lastHeld ? savedBy : Math.min(message.at + phoneLag, savedBy))
		);
	});
	const until = Math.min(
		Math.max(...estimates) + rules.quietMs + 1,
		estimates[0] + rules.longestMs,
	);
	if (ownClose !== undefined) return Math.max(ownClose, until);
	return until > burst.closedAt ? until : undefined;
}

/**
 * How much later than its burst closed (by the phone's timestamps) a held message's event may be
 * queued and still have been in the read that ran the burst: the read's slack, and the phone's lag
 * as the burst's other held messages, or the messages the process settled before, show it (a
 * clock behind queues every message of a live burst after its close by the phone's timestamps).
 * With neither, nothing is known of the phone and no lag is assumed: a burst run twice is narrowed
 * by the run claim, one never run is lost.
 */
export function queuedAfterRun(
	burst: ClosedBurst,
	held: readonly Held[],
	id: string,
	settledLag: number | undefined,
): boolean {
	const own = held.find((entry) => entry.message.id === id)?.queuedAt;
	if (own === undefined) return false;
	const others = new Set(burst.messages.map((message) => message.id));
	others.delete(id);
	const lags = queueLags(held, others).map((entry) => entry.lag);
	if (settledLag !== undefined) lags.push(settledLag);
	const phoneLag = lags.length === 0 ? 0 : Math.max(0, Math.min(...lags));
	return own > burst.closedAt + phoneLag + SAVE_SLACK_MS;
}
