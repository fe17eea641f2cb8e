import { burstThrough, type BurstRules, type BurstVerdict } from './bursts';
import {
	endsInHeld,
	identityOf,
	vouchedTimeline,
	type HeldMessage,
	type ReadExtent,
} from './heldPlan';
import { uploadOpenUntil } from './uploadWindow';

/*
 * What a read says of a message a later one of its burst carries, in a process that answers it
 * only once a recorded run holds it (the trigger's conversationDesk.ts): which run holds it here,
 * and the run it starts itself when none was recorded by its deadline.
 */

/** The burst of `id` as `read` and the messages known here show it. */
function burstIn(read: ReadExtent, known: readonly HeldMessage[], id: string, rules: BurstRules) {
	const timeline = vouchedTimeline(
		read,
		known.map((entry) => entry.message),
	);
	return burstThrough(timeline, id, rules, read);
}

/**
 * Whether `read` shows the burst of `id` closed in another message of `held`: that message's
 * delivery starts its run in this process, so `id` is carried by it (conversationDesk.ts).
 */
export function carriedByHeldIn(
	read: ReadExtent,
	held: readonly HeldMessage[],
	id: string,
	rules: BurstRules,
): boolean {
	return endsInHeld(burstIn(read, held, id, rules), held, id);
}

/**
 * The run a carried message starts itself when no run holding it was recorded by its deadline
 * (conversationDesk.ts): its burst as `read` shows it closed, with the same messages whichever
 * delivery starts it; undefined while the read leaves the burst open (a later message may still
 * join it, or a late upload's quiet window has not passed).
 */
export function carriedRun(
	read: ReadExtent,
	known: readonly HeldMessage[],
	id: string,
	rules: BurstRules,
	/**
	 * The bursts `read` and the kept reads before it found closed, by identity (recentReads.ts:
	 * ranSince): each ran, or was shown closed to a carried delivery, then.
	 */
	ran: ReadonlyMap<string, string | undefined>,
): Extract<BurstVerdict, { kind: 'last' }> | undefined {
	const burst = burstIn(read, known, id, rules);
	if (burst.kind !== 'last') return undefined;
	if (ran.has(identityOf(burst))) return burst;
	const openUntil = uploadOpenUntil(burst, known, rules, read.asOf);
	return openUntil !== undefined && openUntil > read.asOf ? undefined : burst;
}
