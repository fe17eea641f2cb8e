import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { isCaughtUp } from './caughtUp';
import { answerOfKey, messageKey, messageOfKey } from './claimKeys';
import { CLAIMS_KEPT, recordNeverFull, takeBack, type Claimant } from './claimStore';
import { groupedIds, ownIds } from './unclaimedRun';

/*
 * What a run's fresh claims vouch for (runClaim.ts): a caught-up burst only while n8n's record of
 * runs still reaches back to it, and a possible answer only with its message.
 */

/** The person's message before a caught-up burst, whose claim vouches for the record (vouchedCatchUps). */
export const previousId = (item: INodeExecutionData): string | undefined => {
	const id = (item.json.caught_up as { previous_message_id?: unknown } | undefined)
		?.previous_message_id;
	return typeof id === 'string' ? id : undefined;
};

/**
 * `fresh` without a caught-up burst's messages when n8n's record of runs may have let go of their
 * claims: it keeps the last CLAIMS_KEPT across all chats, so an unclaimed message that ran long
 * enough ago looks like one that never ran, and would run twice. The record vouches for a burst
 * while it has never been full, or while it still holds the person's message before the burst
 * (it lets go of the oldest first, and that message ran before the burst's would have).
 */
export async function vouchedCatchUps(
	context: IExecuteFunctions,
	items: readonly INodeExecutionData[],
	fresh: ReadonlySet<string>,
): Promise<ReadonlySet<string>> {
	const unvouched = items.filter(
		(item) =>
			isCaughtUp(item) &&
			(groupedIds(item) ?? []).some((id) => fresh.has(messageKey(id))) &&
			!held(previousId(item), fresh),
	);
	if (unvouched.length === 0 || (await recordNeverFull(context))) return fresh;
	const dropped = new Set(unvouched.flatMap((item) => groupedIds(item) ?? []));
	context.logger.warn(
		`Messaging Automation Trigger: did not catch up ${[...dropped].join(',')}: n8n's record of runs (the last ${CLAIMS_KEPT} messages) no longer reaches back to them, so it cannot tell whether they ran`,
	);
	return new Set([...fresh].filter((key) => !dropped.has(messageOfKey(key) ?? '')));
}

/**
 * `fresh` without the claims the run made only to ask, each taken back:
 * - the answer claims of messages this run does not hold: a message another run claimed without
 *   offering it (it ran as an ordinary message, its delivery's third attempt or Pass Answers off
 *   then) or that the record cannot vouch for. Kept, such a claim would read as an earlier run's
 *   offer to every later run (answerReoffer.ts claimedBefore), and the message, run already, would
 *   be offered too (review s9b, R9b-1, R9b-11);
 * - the claim of a caught-up burst's previous message (what vouches for the record) that no run had
 *   made and no item of this run runs: kept, that message would count as run, and a poll after the
 *   chat's bot was resumed would never run it (review s10, R10-6: a message a paused chat left).
 */
export async function withoutStrayClaims(
	context: IExecuteFunctions,
	fresh: ReadonlySet<string>,
	claimant: Claimant,
	items: readonly INodeExecutionData[],
): Promise<ReadonlySet<string>> {
	const ownKeys = new Set(items.flatMap((item) => ownIds(item).map(messageKey)));
	const previous = new Set(
		items.flatMap((item) => {
			const id = previousId(item);
			return id === undefined ? [] : [messageKey(id)];
		}),
	);
	const stray = [...fresh].filter((key) => {
		const id = answerOfKey(key);
		if (id !== undefined) return !fresh.has(messageKey(id));
		return previous.has(key) && !ownKeys.has(key);
	});
	if (stray.length === 0) return fresh;
	await takeBack(context, stray, claimant);
	return new Set([...fresh].filter((key) => !stray.includes(key)));
}

const held = (id: string | undefined, fresh: ReadonlySet<string>) =>
	id !== undefined && !fresh.has(messageKey(id));
