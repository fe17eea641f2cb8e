import { sleep } from 'n8n-workflow';

import { KEEP_READ_MS, TIMER_SLACK_MS } from '../../shared/conversation/deliveryTiming';
import type { ConversationRead } from '../../shared/conversation/reader';

/** A read and what it vouches for: every message written up to `asOf`. */
export interface KnownRead {
	read: ConversationRead;
	asOf: number;
	complete: boolean;
	/**
	 * The runs it and the kept reads before it started (ranSince): each one's identity, and the
	 * message whose delivery started it. A read that started a burst's run found it closed then.
	 */
	ran: Map<string, string>;
}

/** What `known` vouches for, as the conversation rules take a read (heldPlan.ts). */
export const extentOf = ({ read, asOf, complete }: KnownRead) => ({
	timeline: read.timeline,
	asOf,
	complete,
});

/**
 * Marks each message of `read` saved by the first read that showed it: the kept read `before`, if
 * it did, else this one (`asOf`). A late upload's burst closes a quiet window after the last of
 * its messages was saved (uploadWindow.ts), which only a read made that long after shows.
 */
export function savedBy(read: ConversationRead, asOf: number, before: KnownRead | undefined): void {
	const shown = new Map(
		(before?.read.timeline ?? []).map((entry) => [entry.id, entry.savedBy ?? before?.asOf]),
	);
	for (const entry of read.timeline) entry.savedBy ??= shown.get(entry.id) ?? asOf;
}

/**
 * The runs the kept read `before` knows started, carried on to the read that replaces it, as
 * `savedBy` carries save times: a burst a read ran stays closed for later reads, which may show it
 * less surely (a late upload's quiet window no longer dated: S8-2b), also when n8n did not record
 * the run (R82b-1). One record, not a second one beside it. A run's identity is its messages, so a
 * burst a late message joined is another one. Kept while the read shows the message that started
 * it or it is still held here (`held`): a burst whose messages left both cannot be shown again.
 * At most one per message shown or held, newest kept, so it cannot outgrow the read.
 */
export function ranSince(
	read: ConversationRead,
	before: KnownRead | undefined,
	held: ReadonlySet<string>,
): Map<string, string> {
	const shown = new Set(read.timeline.map((entry) => entry.id));
	const kept = [...(before?.ran ?? [])].filter(([, id]) => shown.has(id) || held.has(id));
	return new Map(kept.slice(Math.max(0, kept.length - shown.size - held.size)));
}

/*
 * Each conversation's last read, the one copy the process keeps: its desk plans with it while
 * deliveries are held, and it settles, for a minute, the deliveries of messages written before it
 * (the service sends a burst's deliveries again at scattered times after a restart) without
 * reading again. A read expires a minute after it was kept, whether or not more come: after a
 * spike, memory goes back to what the last minute's conversations need. At most MAX_KEPT_READS at
 * once, oldest out first.
 */
const MAX_KEPT_READS = 500;

/** Kept reads in the order they were kept (monotonic time), oldest first. */
const recentReads = new Map<string, { known: KnownRead; keptAt: number }>();
let sweepPending = false;

function dropExpired(): void {
	const now = performance.now();
	for (const [key, entry] of recentReads) {
		if (now - entry.keptAt < KEEP_READ_MS && recentReads.size <= MAX_KEPT_READS) break;
		recentReads.delete(key);
	}
}

/** Drops the oldest read when it expires, and so on until none is left. */
function sweepLater(): void {
	const oldest = recentReads.values().next().value;
	if (sweepPending || !oldest) return;
	sweepPending = true;
	const due = Math.max(0, oldest.keptAt + KEEP_READ_MS - performance.now());
	void sleep(due + TIMER_SLACK_MS).then(() => {
		sweepPending = false;
		dropExpired();
		sweepLater();
	});
}

export function remember(key: string, known: KnownRead): void {
	recentReads.delete(key);
	recentReads.set(key, { known, keptAt: performance.now() });
	dropExpired();
	sweepLater();
}

export function recentRead(key: string): KnownRead | undefined {
	dropExpired();
	return recentReads.get(key)?.known;
}

/** How many reads the process keeps now. */
export function keptReads(): number {
	return recentReads.size;
}
