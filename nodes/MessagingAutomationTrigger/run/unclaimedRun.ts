import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { isCaughtUp } from './caughtUp';
import { CLAIM_WAITS_MS, type Claimant } from './claimStore';

/*
 * A run whose claim n8n's store still failed after CLAIM_WAITS_MS (runClaim.ts): what it may pass
 * on without knowing what ran before. Only a run that cannot be a copy by construction goes on.
 */

const strings = (value: unknown): string[] | undefined =>
	Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : undefined;

/** A grouped run's messages, in written order; undefined for a run of one event. */
export const groupedIds = (item: INodeExecutionData | undefined) => strings(item?.json.message_ids);

/** The messages an item runs: a grouped run's, or the one it received. */
export const ownIds = (item: INodeExecutionData) =>
	groupedIds(item) ?? [String(item.json.message_id)];

/**
 * Whether a carried delivery started this grouped run (a delivered one, not caught up): the
 * event's own message is not the burst's last. A carried delivery starts its burst's run at its deadline when no run holding it was
 * recorded that its process knew of (conversationDesk.ts: expireCarried), so the run is a copy
 * whenever the burst's own run was recorded elsewhere (another webhook process, or after the
 * desk forgot): for every burst of two or more messages split over two processes.
 */
function carriedStart(item: INodeExecutionData): boolean {
	// A caught-up burst's item has the event of the delivery whose run carries it.
	const ids = isCaughtUp(item) ? undefined : groupedIds(item);
	const data = item.json.data as { message?: { id?: unknown } } | undefined;
	const starter = data?.message?.id;
	return ids !== undefined && typeof starter === 'string' && starter !== ids[ids.length - 1];
}

const patience = `${CLAIM_WAITS_MS.reduce((sum, wait) => sum + wait, 0) / 1000} s`;

/**
 * Throws when the run must not go on unclaimed. The Catch-Up poll's run fails, in the executions
 * list and n8n's log, and the poll (which learns how its runs ended) leaves those chats to its
 * next poll. A run a carried delivery started (carriedStart) fails too, passing nothing on: in the
 * common case the burst's own run was recorded. Its messages stay unclaimed; if no run held them
 * (the last message's event lost, or its run not recorded), the error execution is where the user
 * sees it, and they run once at the person's next message 3 minutes or more after them, or at the
 * Catch-Up node's poll, whatever the bot answered in between (catchUp.ts, review s5, R5-4).
 */
export function refuseUnclaimed(
	context: IExecuteFunctions,
	claimant: Claimant,
	items: readonly INodeExecutionData[],
): void {
	if (claimant.polled)
		throw new NodeOperationError(
			context.getNode(),
			"n8n's record of runs failed, so this run cannot tell which caught-up messages ran before; it runs none of them, and the next poll catches them up again",
			{ level: 'warning' },
		);
	const carried = items.filter(carriedStart);
	if (carried.length === 0) return;
	const ids = carried.flatMap((item) => groupedIds(item) ?? []).join(', ');
	const conversation = String(carried[0].json.conversation_id);
	context.logger.warn(
		`Messaging Automation Trigger: did not run messages ${ids} in conversation ${conversation}: n8n's record of runs failed for ${patience} and an earlier message's delivery started this run, most often a copy of the burst's own run`,
	);
	throw new NodeOperationError(
		context.getNode(),
		`Not run: messages ${ids} (conversation ${conversation}). n8n's record of runs failed for ${patience}, so this execution could not tell whether another one already ran these messages; most often one did. If none did, the person's next message 3 minutes or more after them, or the Catch-Up node, runs them once. Retry this execution only if no other one ran them: it runs them now, and no catch-up runs them again`,
		{ level: 'warning' },
	);
}

/**
 * An item of a run allowed to go on unclaimed: a burst's own run (its last message's delivery)
 * or an ungrouped one goes on whole (its delivery is the proof it was meant to run, and twice
 * beats never); a caught-up burst goes no further, since in the common case it ran already. A
 * later burst of its chat catches it up once the store answers again.
 */
export function whenUnclaimed(
	context: IExecuteFunctions,
	item: INodeExecutionData,
): INodeExecutionData[] {
	if (!isCaughtUp(item)) return [item];
	context.logger.warn(
		`Messaging Automation Trigger: did not catch up ${String(groupedIds(item)?.join(','))} in conversation ${String(item.json.conversation_id)}: n8n could not say whether they ran before`,
	);
	return [];
}
