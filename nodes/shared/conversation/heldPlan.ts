import { burstOf, burstThrough, type BurstRules, type BurstVerdict } from './bursts';
import { SAVE_SLACK_MS } from './deliveryTiming';
import { queuedAfterRun, uploadOpenUntil } from './uploadWindow';
import { mergeTimelines, type TimelineMessage } from './timeline';

/*
 * What a webhook process may do with the grouped deliveries it holds. Only a read of the
 * conversation settles a held message: a read shows every message written up to its `asOf`, the
 * account's too, and the account's message ends a burst. So a later held message of the same
 * person carries an earlier one only once a read has shown nothing between them; what a process
 * holds (and its last read) only says when the next read is due.
 */

export interface HeldMessage {
	message: TimelineMessage;
	/** Service time by which its delivery must be answered (inside the receiver time-out). */
	deadline: number;
	/** Service time the service queued its event (the envelope's `created_at`), when known. */
	queuedAt?: number;
}

/** One read of the conversation: its messages, and the service time up to which it holds every message written. */
export interface ReadExtent {
	timeline: readonly TimelineMessage[];
	asOf: number;
	/** The read reaches the conversation's first message (or as far back as is followed). */
	complete: boolean;
}

export type HeldOutcome =
	| { kind: 'run'; verdict: Extract<BurstVerdict, { kind: 'last' }> }
	/** Another held message of its burst, or a run already started from the read, carries it. */
	| { kind: 'none' }
	/** The read does not settle it yet (its burst is open, or it was written after `asOf`). */
	| { kind: 'keep' }
	| { kind: 'needOlder' };

/**
 * The timeline a read vouches for: its messages plus the held ones written by its `asOf` (a
 * delivered message counts even if the service saved it too late for the read). A held message
 * written later is left out: an account's message before it may not be saved yet.
 */
export function vouchedTimeline(
	read: ReadExtent,
	held: readonly TimelineMessage[],
): TimelineMessage[] {
	return mergeTimelines(
		read.timeline,
		held.filter((message) => message.at <= read.asOf),
	);
}

/**
 * A run's identity: the messages it holds, in written order, never the event that happened to
 * close it. A copy of a run has the same identity; a burst run again with a message the service
 * saved late has a new one.
 */
export function runIdentity(messageIds: readonly unknown[]): string {
	return messageIds.map((id) => (typeof id === 'string' ? id : '')).join(',');
}

/** Whether the run `identity` (runIdentity) begins with one of `ids` (tried at every comma: ids may hold one). */
export function beginsWithOneOf(identity: string, ids: ReadonlySet<string>): boolean {
	if (ids.has(identity)) return true;
	for (let at = identity.indexOf(','); at >= 0; at = identity.indexOf(',', at + 1))
		if (ids.has(identity.slice(0, at))) return true;
	return false;
}

/** The identity of the run a burst verdict starts. */
export const identityOf = (verdict: Extract<BurstVerdict, { kind: 'last' }>): string =>
	runIdentity(verdict.messages.map((message) => message.id));

/**
 * What `read` settles for each held message, by id. A message whose event the service queued
 * after its burst closed may have been saved late (a phone that was offline) and missing from the
 * read that ran the burst, so its burst runs with it; any other message followed within its burst
 * is carried. One read starts at most one run per burst, and a burst it already ran (`ran`: the
 * message that started each, by identity; undefined for a burst a read only showed closed) only
 * again from that message's delivery, sent again (a run that did not start): a burst delivered
 * late as a whole (or by a service whose events lag) has every message queued after it closed,
 * and still runs once. `ran` only spares the copies of a run an execution that passes nothing on;
 * which messages ran is the run claim's to know
 * (runClaim.ts), and a run holding messages an earlier run held passes on only the others.
 */
export function settleByRead(
	read: ReadExtent,
	held: readonly HeldMessage[],
	rules: BurstRules,
	ran: ReadonlyMap<string, string | undefined> = new Map(),
	/** The phone's lag as the deliveries this process settled in the conversation showed it. */
	settledLag?: number,
): Map<string, HeldOutcome> {
	const timeline = vouchedTimeline(
		read,
		held.map((entry) => entry.message),
	);
	const extent = { complete: read.complete, asOf: read.asOf };
	const outcomes = new Map<string, HeldOutcome>();
	for (const { message, queuedAt } of held) {
		const verdict =
			message.at > read.asOf ? undefined : burstOf(timeline, message.id, rules, extent);
		let outcome: HeldOutcome =
			verdict?.kind === 'last'
				? { kind: 'run', verdict }
				: verdict?.kind === 'notLast'
					? { kind: 'none' }
					: verdict?.kind === 'needOlder'
						? verdict
						: { kind: 'keep' };
		if (outcome.kind === 'none' && queuedAt !== undefined) {
			const burst = burstThrough(timeline, message.id, rules, extent);
			if (
				burst.kind === 'last' &&
				(ran.get(identityOf(burst)) === message.id ||
					queuedAfterRun(burst, held, message.id, settledLag))
			)
				outcome = { kind: 'run', verdict: burst };
		}
		outcomes.set(message.id, outcome);
	}
	// A burst still open for a late upload or a phone whose clock runs behind has not run: the
	// message that will start it waits for the rest (the others are carried by it).
	for (const [id, outcome] of oneRunPerBurst(outcomes, ran)) {
		if (outcome.kind !== 'run') continue;
		const openUntil = uploadOpenUntil(outcome.verdict, held, rules, read.asOf);
		if (openUntil !== undefined && openUntil > read.asOf) outcomes.set(id, { kind: 'keep' });
	}
	return outcomes;
}

/**
 * Of the held messages a read runs one burst for, only one starts it: the message that started it
 * before, if `ran` has one for the burst; else the burst's last message if held, else the first
 * held. The others are carried by it.
 */
function oneRunPerBurst(
	outcomes: Map<string, HeldOutcome>,
	ran: ReadonlyMap<string, string | undefined>,
): Map<string, HeldOutcome> {
	const starter = new Map<string, string>();
	for (const [id, outcome] of outcomes) {
		if (outcome.kind !== 'run') continue;
		const identity = identityOf(outcome.verdict);
		const last = outcome.verdict.messages[outcome.verdict.messages.length - 1];
		const before = ran.get(identity);
		if (before !== undefined ? before === id : !starter.has(identity) || last.id === id)
			starter.set(identity, id);
	}
	for (const [id, outcome] of outcomes) {
		if (outcome.kind === 'run' && starter.get(identityOf(outcome.verdict)) !== id)
			outcomes.set(id, { kind: 'none' });
	}
	return outcomes;
}

/** What the process knows: its last read and the messages it holds. */
const likelyTimeline = (known: readonly TimelineMessage[], held: readonly HeldMessage[]) =>
	mergeTimelines(
		known,
		held.map((entry) => entry.message),
	);

/** The verdict for `id` from what the process knows at `now`. */
function likelyVerdict(
	known: readonly TimelineMessage[],
	held: readonly HeldMessage[],
	id: string,
	rules: BurstRules,
	now: number,
): BurstVerdict {
	return burstOf(likelyTimeline(known, held), id, rules, { complete: true, asOf: now });
}

/**
 * Until when the burst of `id` stays open on the service's clock (uploadWindow.ts), from what the
 * process knows at `now`: the messages of its last read were saved by `knownAsOf`.
 */
function likelyOpenUntil(
	known: readonly TimelineMessage[],
	held: readonly HeldMessage[],
	id: string,
	rules: BurstRules,
	now: number,
	knownAsOf = now,
): number | undefined {
	const burst = burstThrough(likelyTimeline(known, held), id, rules, { complete: true, asOf: now });
	return burst.kind === 'last' ? uploadOpenUntil(burst, held, rules, knownAsOf) : undefined;
}

/** Whether `burst`, the burst of `id`, ends in another message of `held`. */
export function endsInHeld(burst: BurstVerdict, held: readonly HeldMessage[], id: string): boolean {
	const last = burst.kind === 'last' ? burst.messages[burst.messages.length - 1].id : undefined;
	return last !== undefined && last !== id && held.some((entry) => entry.message.id === last);
}

/** Whether what the process knows says the burst of `id` ends in another message it holds. */
function carriedByHeld(
	known: readonly TimelineMessage[],
	held: readonly HeldMessage[],
	id: string,
	rules: BurstRules,
	now: number,
): boolean {
	const burst = burstThrough(likelyTimeline(known, held), id, rules, { complete: true, asOf: now });
	return endsInHeld(burst, held, id);
}

/**
 * Whether `entry` may start an upload no read showed yet: its lag (queue time less timestamp) is
 * over a quiet window past that of every other held message, of those settled before
 * (`settledLag`) and of a clock that is right. A phone whose clock runs behind keeps one lag, so
 * only its burst's first delivery counts. A read sent after the event was queued that lacks the
 * message cannot reach it (a busy group's pages): no read at once again (R43de-2).
 */
function firstOfUpload(
	known: readonly TimelineMessage[],
	held: readonly HeldMessage[],
	entry: HeldMessage,
	rules: BurstRules,
	settledLag: number | undefined,
	knownAsOf: number | undefined,
): boolean {
	if (entry.queuedAt === undefined || known.some((message) => message.id === entry.message.id))
		return false;
	if (knownAsOf !== undefined && knownAsOf + SAVE_SLACK_MS >= entry.queuedAt) return false;
	const lag = entry.queuedAt - entry.message.at;
	// A clock that is right (lag 0) is the other to compare with when nothing else is known.
	const others = held.flatMap((other) =>
		other !== entry && other.queuedAt !== undefined ? [other.queuedAt - other.message.at] : [],
	);
	if (settledLag !== undefined) others.push(settledLag);
	return [0, ...others].every((other) => lag > other + rules.quietMs);
}

/**
 * Service time of the next read: when a held message's burst may close, and `leadMs` before the
 * deadline of one that only the messages held say a later one carries (the read confirms it, or
 * finds the account's message between them that makes it its burst's last).
 */
export function nextReadAt(
	known: readonly TimelineMessage[],
	held: readonly HeldMessage[],
	rules: BurstRules,
	now: number,
	leadMs: number,
	/** Service time up to which the last read (`known`) holds every message written. */
	knownAsOf?: number,
	/** The phone's lag as the deliveries this process settled in the conversation showed it. */
	settledLag?: number,
): number {
	let readAt = Number.POSITIVE_INFINITY;
	for (const entry of held) {
		const verdict = likelyVerdict(known, held, entry.message.id, rules, now);
		// One read before the deadline of a message a later one carries: it shows whether its burst
		// has closed (then it starts the run itself if none holding it is recorded by its deadline),
		// or the account's message that makes it its burst's last. Once: not again after that read.
		const confirmAt = entry.deadline - leadMs;
		const confirmed = knownAsOf !== undefined && knownAsOf >= confirmAt;
		const unconfirmed = confirmed ? Number.POSITIVE_INFINITY : confirmAt;
		const due =
			verdict.kind === 'wait' ? verdict.until : verdict.kind === 'notLast' ? unconfirmed : now;
		// No read settles a run before a late upload's quiet window has passed; one that confirms a
		// message its burst's held last one carries comes before its deadline all the same, and so
		// does the first read to show the start of an upload: it shows what else the upload saved,
		// and the window counts from that read (uploadWindow.ts).
		const openUntil =
			firstOfUpload(known, held, entry, rules, settledLag, knownAsOf) ||
			carriedByHeld(known, held, entry.message.id, rules, now)
				? undefined
				: likelyOpenUntil(known, held, entry.message.id, rules, now, knownAsOf);
		// No read settles a message written after its `asOf` (settleByRead): none is due before.
		const settles = Math.max(due, entry.message.at);
		readAt = Math.min(readAt, openUntil !== undefined ? Math.max(settles, openUntil) : settles);
	}
	return readAt;
}

/**
 * Whether a held message's burst is still open at `now`: its delivery cannot be held until the
 * burst closes (a quiet window longer than the hold), so it is answered and the message stays held.
 * Any other delivery not settled by its deadline goes back to the service, which sends it again.
 */
export function burstStillOpen(
	known: readonly TimelineMessage[],
	held: readonly HeldMessage[],
	id: string,
	rules: BurstRules,
	now: number,
	knownAsOf?: number,
): boolean {
	const verdict = likelyVerdict(known, held, id, rules, now);
	if (verdict.kind !== 'last') return verdict.kind === 'wait';
	const openUntil = likelyOpenUntil(known, held, id, rules, now, knownAsOf);
	return openUntil !== undefined && openUntil > now;
}
