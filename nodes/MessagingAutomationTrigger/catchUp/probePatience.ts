/*
 * How long the Catch-Up poll keeps asking about a possible answer whose question it cannot ask (its
 * probe or read back failed: n8n's own URL not answering, most often). Until then the chat waits
 * whole and is read again at each poll (R9b-8); after it, the burst runs as the ordinary message it
 * then is, as the delivered trigger runs a reply after the service's third attempt, so that a chat
 * whose n8n never reaches its own URL still settles within Max Age (review s9c, R9c-2).
 *
 * Both bounds must be met, counted from the poll that first failed, never from the burst's time: a
 * poll whose first look at the chat comes late (hourly Poll Times, n8n down a while) asks again
 * before it gives up (review s9d, R9d-3). Kept in the activation's memory (pollMemory.ts): a restart
 * starts the count again, which costs a later run, never a wrong one.
 */

const MINUTE = 60_000;
/**
 * Polls in a row whose ask about the burst failed, this one included: two, so that Poll Times up
 * to 28 minutes give up within a 1-hour Max Age (review s10, R10-7).
 */
export const PROBE_GIVE_UP_POLLS = 2;
/** Service time from the first failed poll to the one that gives up. */
export const PROBE_GIVE_UP_MS = 10 * MINUTE;

/** The activation's possible answers the poll could not ask about, by chat and first message. */
export type FailingProbes = Map<string, FailingProbe>;

export interface FailingProbe {
	/** Service time of the first poll whose ask failed. */
	firstAt: number;
	polls: number;
	/** Given up on: it stays so, while another burst of its chat still waits (the chat waits whole). */
	gaveUp?: boolean;
}

const keyOf = (conversationId: string, firstMessageId: string) =>
	`${conversationId}|${firstMessageId}`;

/**
 * Counts this poll's failed ask about the burst whose first message is `firstMessageId`: whether
 * the poll gives up on it (`first`: at this poll). A test run (no memory) never does.
 */
export function givesUp(
	memory: FailingProbes | undefined,
	conversationId: string,
	firstMessageId: string,
	now: number,
): { now: boolean; first: boolean } {
	if (!memory) return { now: false, first: false };
	const key = keyOf(conversationId, firstMessageId);
	const failing = memory.get(key) ?? { firstAt: now, polls: 0 };
	failing.polls += 1;
	memory.set(key, failing);
	const before = failing.gaveUp === true;
	failing.gaveUp =
		before || (failing.polls >= PROBE_GIVE_UP_POLLS && now - failing.firstAt >= PROBE_GIVE_UP_MS);
	return { now: failing.gaveUp, first: failing.gaveUp && !before };
}

/** The burst was asked about: a later failure counts from its own poll. */
export function asked(
	memory: FailingProbes | undefined,
	conversationId: string,
	firstMessageId: string,
): void {
	memory?.delete(keyOf(conversationId, firstMessageId));
}

/** Forgets bursts no poll asks about any more: first failed before `before` (past Max Age). */
export function forgetFailingBefore(memory: FailingProbes, before: number): void {
	for (const [key, failing] of memory) if (failing.firstAt < before) memory.delete(key);
}
