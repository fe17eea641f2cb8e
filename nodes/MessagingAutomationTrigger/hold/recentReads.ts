import { sleep } from 'n8n-workflow';

import { KEEP_READ_MS, TIMER_SLACK_MS } from '../../shared/conversation/deliveryTiming';
import { beginsWithOneOf } from '../../shared/conversation/heldPlan';
import type { ConversationRead } from '../../shared/conversation/reader';

/** A read and what it vouches for: every message written up to `asOf`. */
export interface KnownRead {
	read: ConversationRead;
	asOf: number;
	complete: boolean;
	/**
	 * The bursts it and the kept reads before it found closed (ranSince), by identity: the message
	 * whose delivery started each one's run from it, else undefined (a read before it found it
	 * closed, or it showed it closed to a carried delivery). A burst found closed stays closed: the
	 * one record of it.
	 */
	ran: Map<string, string | undefined>;
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
 * The bursts the kept read `before` found closed, carried on to the read that replaces it, as
 * `savedBy` carries save times: a burst a read ran or showed closed stays closed for later reads,
 * which may show it less surely (S8-2b: a late upload's quiet window no longer dated; R82b-3),
 * also when n8n did not record its run (R82b-1). One record, not a second one beside it. A burst's
 * identity is its messages, so a burst a late message joined is another one. Carried on without
 * the message that started it: which held delivery starts a burst again is the read's own choice
 * (settleByRead), and a later read lets a copy of the burst's delivery run at once, the run claim
 * narrowing it, rather than hold it to its deadline. Each is kept while the read shows its first
 * message or the desk still holds it (`held`): a burst whose first message left both cannot be
 * shown whole again. At most one per message shown or held, newest kept, so it cannot outgrow the
 * read.
 */
export function ranSince(
	read: ConversationRead,
	before: KnownRead | undefined,
	held: ReadonlySet<string>,
): Map<string, string | undefined> {
	const shown = new Set(read.timeline.map((entry) => entry.id));
	const here = new Set([...shown, ...held]);
	const kept = [...(before?.ran ?? [])].filter(([identity]) => beginsWithOneOf(identity, here));
	const newest = kept.slice(Math.max(0, kept.length - here.size));
	return new Map(newest.map(([identity]) => [identity, undefined]));
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
