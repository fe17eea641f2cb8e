import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { ANSWER_OFFER_TIMEOUT_MS } from '../../shared/conversation/deliveryTiming';
import { claimed, takeBack, type Claimant } from '../run/claimStore';
import { groupedIds } from '../run/unclaimedRun';
import { offersIn } from './answerPass';
import { settledKeys } from './offerTries';
import { paused } from './runCancel';

/*
 * n8n stopped (or cancelled the run) after a run claimed an answer and before its offer ended: the
 * service's retry finds the message claimed, so no run would ever offer or run it. Its run, or
 * when n8n had answered the delivery already (no retry comes) the run of the person's next message
 * (answerRoute.ts: earlierAnswer), takes the offer over when its delivery's probe found the
 * question still waiting (its item names the offer), a run claimed the message as an answer, and
 * no run recorded the offer's end (`settled|<id>`, offerTries.ts): it takes that record
 * first, so one later run at most makes the offer again, and the earlier run, when it only paused
 * between tries, stops offering at its next try. The offer is then this run's, made and ended by
 * the one rule of a first offer (answerPass.ts: taken, or run as a message). The wait before
 * shields n8n 1.x (which resumes as often as asked) from two offers at once: the earlier run's
 * offer in flight when this run started ends, and its end is recorded, before this run takes the
 * record; one it starts just before is over before this run offers.
 */

/** The earlier run's offer in flight ends (its time-out), and its end is recorded, within this. */
const EARLIER_OFFER_ENDS_MS = ANSWER_OFFER_TIMEOUT_MS + 1000;

/**
 * Which of `ids` a run claimed as answers (`answer|<id>`, runClaim.ts): an earlier answer the
 * trigger never offered (it was inactive then) stays unoffered. Asked by claiming; a claim this
 * makes is taken back at once.
 */
async function claimedBefore(
	context: IExecuteFunctions,
	ids: string[],
	claimant: Claimant,
): Promise<string[]> {
	const keys = ids.map((id) => `answer|${id}`);
	const fresh = await claimed(context, keys, claimant);
	if (!fresh) return [];
	await takeBack(context, [...fresh], claimant);
	return ids.filter((id) => !fresh.has(`answer|${id}`));
}

/**
 * The messages of `items`' offers that an earlier run claimed (not in `fresh`) and never settled,
 * whose offer this run now holds (it took their `settled|<id>` record), once it may make it.
 */
export async function takeOverUnsettled(
	context: IExecuteFunctions,
	items: readonly INodeExecutionData[],
	fresh: ReadonlySet<string>,
	claimant: Claimant,
): Promise<Set<string>> {
	const ids = items.flatMap((item) => {
		const own = groupedIds(item) ?? [String(item.json.message_id)];
		// An earlier message is asked about only by the run that holds the item's own: not by its copies.
		const holds = own.some((id) => fresh.has(`message|${id}`));
		return offersIn(
			item,
			(id) => !fresh.has(`message|${id}`) && (holds || own.includes(id)),
		).flatMap((entry) => entry.messageIds);
	});
	if (ids.length === 0 || !(await paused(context, EARLIER_OFFER_ENDS_MS))) return new Set();
	const answers = await claimedBefore(context, ids, claimant);
	if (answers.length === 0) return new Set();
	const unsettled = await claimed(context, settledKeys(answers), claimant);
	const mine = new Set(answers.filter((id) => unsettled?.has(`settled|${id}`)));
	if (mine.size === 0) return mine;
	context.logger.warn(
		`Messaging Automation Trigger: messages ${[...mine].join(', ')} were claimed as answers by an earlier run that never ended their offer (n8n stopped or cancelled it), and their Send and Wait question still waits: offered again`,
	);
	// Cancelled meanwhile: the offer then ends at its first try, cancelled, and gives the record back (answerPass.ts).
	await paused(context, ANSWER_OFFER_TIMEOUT_MS);
	return mine;
}
