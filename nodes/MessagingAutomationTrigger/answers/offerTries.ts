import type { IExecuteFunctions } from 'n8n-workflow';

import { OFFER_RETRY_PAUSES_MS } from '../../shared/conversation/deliveryTiming';
import { monotonicNow } from '../../shared/monotonic';
import { claimed, takeBack, type Claimant } from '../run/claimStore';
import { offer } from './answerOffers';
import type { AnswerOffer } from './answerRoute';
import { cancelled, paused } from './runCancel';

/*
 * One offer of a run, made until it reaches a verdict. The offer comes after n8n answered the
 * delivery, so one without a verdict cannot go back to the service: it is made again on the
 * service's own schedule (deliveryTiming.ts), counted from the first try's start on the process's
 * monotonic clock, and only then do its messages run as ordinary ones. Once it ends, the run
 * records it (`settled|<id>`): a later run of the same delivery, after n8n stopped between the
 * claim and the offer, makes the offer only while that record is missing (answerReoffer.ts), and
 * its offer ends by this same rule. An offer n8n cancelled (runCancel.ts) has no end: it is left
 * for a later run to make again.
 */

export interface OfferRun {
	context: IExecuteFunctions;
	entry: AnswerOffer;
	conversationId: string | undefined;
	/**
	 * The messages offered, in written order: the node resumes with the first it accepts. The offer
	 * narrows it to those still its own when a later run takes some over (stillOurs).
	 */
	messageIds: string[];
	/** Whom the run claims for; undefined: it claims nothing (a test run, or the store failed). */
	claimant?: Claimant;
	/** A later run's offer (answerReoffer.ts): it holds the record already. */
	later?: boolean;
}

export interface OfferEnd {
	/** The message the question took. */
	taken?: string;
	/** A later run of the delivery offers these messages now: they run in no run here. */
	takenOver?: boolean;
	/** Messages a later run took over part-way (the others stayed this offer's): in no run here. */
	takenOverIds?: string[];
	/** n8n cancelled the run before the offer ended: no end is recorded, nothing runs here. */
	cancelled?: boolean;
}

export const settledKeys = (ids: readonly string[]) => ids.map((id) => `settled|${id}`);

/** Records that the offer reached its end, so no later run makes it again. */
export async function settle(run: OfferRun): Promise<void> {
	// A later run holds its messages' records already; the others of a mixed offer are claimed here.
	if (run.claimant) await claimed(run.context, settledKeys(run.messageIds), run.claimant);
}

/**
 * The offer's messages no later run has taken over (it claims `settled|<id>`; the person's next
 * message takes over one earlier answer of a burst's offer, not all: review s7b, S7-7): asked by
 * claiming the same keys, a claim this makes taken back at once. A failed store says all: the run
 * goes on.
 */
async function stillOurs(run: OfferRun): Promise<string[]> {
	if (!run.claimant || run.later) return run.messageIds;
	const fresh = await claimed(run.context, settledKeys(run.messageIds), run.claimant);
	if (!fresh) return run.messageIds;
	await takeBack(run.context, [...fresh], run.claimant);
	return run.messageIds.filter((id) => fresh.has(`settled|${id}`));
}

/**
 * The offer made until it reaches a verdict. n8n refusing it (the execution no longer waits) after
 * an attempt that ended without a verdict where the node may have resumed (a time-out, not the
 * node's own 503, which resumes nothing) means in the common case that attempt resumed it: n8n
 * answered after the time-out. The first message that attempt offered (the node resumes with the
 * first it accepts) then counts as taken, and runs no bot; when a later run took that message over
 * since, the rest run as messages (review s7c, S7-9: the next message counted, and lost).
 */
export async function offerUntilDecided(run: OfferRun): Promise<OfferEnd> {
	const { context, entry } = run;
	const what = () => `messages ${run.messageIds.join(', ')}`;
	const takenOverIds: string[] = [];
	const start = monotonicNow();
	/** The first message of each try that may have resumed the question, in try order. */
	const mayHaveResumedWith: string[] = [];
	let scheduled = 0;
	let next = start;
	for (let attempt = 0; ; attempt++) {
		if (attempt > 0 && !(await paused(context, next - monotonicNow()))) break;
		const ours = attempt > 0 ? await stillOurs(run) : run.messageIds;
		if (ours.length < run.messageIds.length) {
			const gone = run.messageIds.filter((id) => !ours.includes(id));
			context.logger.warn(
				`Messaging Automation Trigger: messages ${gone.join(', ')} are offered to the Send and Wait question ${entry.question_id} by a later run of their delivery now; they run in no run here`,
			);
			if (ours.length === 0) return { takenOver: true };
			takenOverIds.push(...gone);
			run.messageIds = ours;
		}
		if (cancelled(context)) break;
		const verdict = await offer(context, entry.link, run.conversationId, run.messageIds);
		if (verdict.failed === undefined) {
			if (!verdict.notWaiting || mayHaveResumedWith.length === 0)
				return { taken: verdict.taken, takenOverIds };
			const taken = mayHaveResumedWith.find((id) => run.messageIds.includes(id));
			context.logger.warn(
				taken === undefined
					? `Messaging Automation Trigger: the Send and Wait question ${entry.question_id} no longer waits; the message an earlier offer most likely resumed it with is a later run's now, so ${what()} run as messages`
					: `Messaging Automation Trigger: message ${taken} counted as the answer to the Send and Wait question ${entry.question_id}: an earlier offer got no answer in time and the question no longer waits, so that offer most likely resumed it; the message runs no workflow`,
			);
			return { taken, takenOverIds };
		}
		if (verdict.resumedNothing !== true) mayHaveResumedWith.push(run.messageIds[0]);
		const pause = OFFER_RETRY_PAUSES_MS[attempt];
		// Never sooner than the first pause after a try's end: a resume n8n answers late has time to end.
		scheduled += pause ?? 0;
		const due = Math.max(scheduled, monotonicNow() - start + OFFER_RETRY_PAUSES_MS[0]);
		context.logger.warn(
			`Messaging Automation Trigger: ${what()} could not be offered to the Send and Wait question ${entry.question_id} (${verdict.failed})${pause === undefined ? '; they run as messages' : `; offered again ${Math.round(due / 1000)} s after the first try`}`,
		);
		if (pause === undefined) return { takenOverIds };
		next = start + due;
	}
	context.logger.warn(
		`Messaging Automation Trigger: n8n cancelled the run while ${what()} were offered to the Send and Wait question ${entry.question_id}: no longer offered here, and a later run of their chat offers them again while the question waits`,
	);
	return { cancelled: true };
}
