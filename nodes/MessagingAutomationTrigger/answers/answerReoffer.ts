import { sleep, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { ANSWER_OFFER_TIMEOUT_MS } from '../../shared/conversation/deliveryTiming';
import { claimed, type Claimant } from '../run/claimStore';
import { offersIn } from './answerPass';
import { offerUntilDecided, settledKeys } from './offerTries';

/*
 * n8n stopped after a run claimed an answer and before its offer ended: the service's retry finds
 * the message claimed, so it must never run here, yet nothing offered it. Its run offers it again
 * when this delivery's probe found the question still waiting (its item names the offer) and no
 * run recorded the offer's end (`settled|<id>`, offerTries.ts): it takes that record first, so one
 * later run at most makes the offer again, and the earlier run, when it only paused between tries,
 * stops offering at its next try. The wait before shields n8n 1.x (which resumes as often as
 * asked) from two offers at once: the earlier run's offer in flight when this run started ends,
 * and its end is recorded, before this run takes the record; one it starts just before is over
 * before this run offers.
 */

/** The earlier run's offer in flight ends (its time-out), and its end is recorded, within this. */
const EARLIER_OFFER_ENDS_MS = ANSWER_OFFER_TIMEOUT_MS + 1000;

/**
 * Makes again the offers of `items` whose messages an earlier run claimed (not in `fresh`) and
 * never settled; a message a question took here runs in no run, as does one it did not take.
 * Returns how many the questions took.
 */
export async function reofferUnsettled(
	context: IExecuteFunctions,
	items: readonly INodeExecutionData[],
	fresh: ReadonlySet<string>,
	claimant: Claimant,
): Promise<number> {
	const offerings = items.flatMap((item) => offersIn(item, (id) => !fresh.has(`message|${id}`)));
	if (offerings.length === 0) return 0;
	await sleep(EARLIER_OFFER_ENDS_MS);
	const unsettled = await claimed(
		context,
		settledKeys(offerings.flatMap((offering) => offering.messageIds)),
		claimant,
	);
	const mine = offerings.flatMap((offering) => {
		const messageIds = offering.messageIds.filter((id) => unsettled?.has(`settled|${id}`));
		return messageIds.length === 0 ? [] : [{ ...offering, messageIds }];
	});
	if (mine.length === 0) return 0;
	await sleep(ANSWER_OFFER_TIMEOUT_MS);
	let taken = 0;
	await Promise.all(
		mine.map(async (offering) => {
			context.logger.warn(
				`Messaging Automation Trigger: messages ${offering.messageIds.join(', ')} were claimed by an earlier run of their delivery that never ended its offer (n8n stopped?), and their Send and Wait question ${offering.entry.question_id} still waits: offered again`,
			);
			const end = await offerUntilDecided({ context, claimant, later: true, ...offering });
			if (end.taken === undefined) return;
			context.logger.info(
				`Messaging Automation Trigger: message ${end.taken} answered the Send and Wait question ${offering.entry.question_id}`,
			);
			taken++;
		}),
	);
	return taken;
}
