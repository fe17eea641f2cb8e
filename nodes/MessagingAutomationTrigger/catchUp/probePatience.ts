/*
 * How long the Catch-Up poll keeps asking about the possible answers of a chat whose questions it
 * cannot ask (a probe or read back failed: n8n's own URL not answering, most often). Until then the
 * chat waits whole and is read again at each poll (R9b-8); after it, those bursts run as the
 * ordinary messages they then are, as the delivered trigger runs a reply after the service's third
 * attempt, so that a chat whose n8n never reaches its own URL still settles within Max Age (review
 * s9c, R9c-2).
 *
 * Counted by chat, as the chat waits whole: counted by burst, a person writing again every few
 * minutes made each burst wait its own count while the others held the chat, and none ever ran
 * (review s10b, R10b-4; s10, R10-1). Both bounds must be met, counted from the poll that first
 * failed, never from the burst's time: a poll whose first look at the chat comes late (hourly Poll
 * Times, n8n down a while) asks again before it gives up (review s9d, R9d-3). Once given up, the
 * chat stays so, an ask that went through in between included (R10b-3), until the entry is older
 * than Max Age. Kept in the activation's memory (pollMemory.ts): a restart starts the count again,
 * which costs a later run, never a wrong one.
 */

const MINUTE = 60_000;
/**
 * Polls in a row at which an ask in the chat failed, this one included: two, so that Poll Times up
 * to 28 minutes give up within a 1-hour Max Age (review s10, R10-7).
 */
export const PROBE_GIVE_UP_POLLS = 2;
/** Service time from the first failed poll to the one that gives up. */
export const PROBE_GIVE_UP_MS = 10 * MINUTE;

/** The activation's chats whose possible answers the poll could not ask about, by conversation. */
export type FailingProbes = Map<string, FailingProbe>;

export interface FailingProbe {
	/** Service time of the first poll whose ask failed. */
	firstAt: number;
	polls: number;
	gaveUp?: boolean;
}

/**
 * Counts this poll's failed asks in the chat: whether the poll gives up on them (`first`: at this
 * poll). A test run (no memory) never does.
 */
export function givesUp(
	memory: FailingProbes | undefined,
	conversationId: string,
	now: number,
): { now: boolean; first: boolean } {
	if (!memory) return { now: false, first: false };
	const failing = memory.get(conversationId) ?? { firstAt: now, polls: 0 };
	failing.polls += 1;
	memory.set(conversationId, failing);
	const before = failing.gaveUp === true;
	failing.gaveUp =
		before || (failing.polls >= PROBE_GIVE_UP_POLLS && now - failing.firstAt >= PROBE_GIVE_UP_MS);
	return { now: failing.gaveUp, first: failing.gaveUp && !before };
}

/** Every ask in the chat went through: a later failure counts from its own poll, unless given up. */
export function asked(memory: FailingProbes | undefined, conversationId: string): void {
	if (memory?.get(conversationId)?.gaveUp !== true) memory?.delete(conversationId);
}

/** Forgets chats no poll asks about any more: first failed before `before` (past Max Age). */
export function forgetFailingBefore(memory: FailingProbes, before: number): void {
	for (const [key, failing] of memory) if (failing.firstAt < before) memory.delete(key);
}
