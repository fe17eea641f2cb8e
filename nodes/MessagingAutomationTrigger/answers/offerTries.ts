import type { IExecuteFunctions } from 'n8n-workflow';

import { OFFER_RETRY_PAUSES_MS } from '../../shared/conversation/deliveryTiming';
import { monotonicNow } from '../../shared/monotonic';
import { claimed, type Claimant } from '../run/claimStore';
import { offer } from './answerOffers';
import type { AnswerOffer } from './answerRoute';
import { cancelled, paused } from './runCancel';
import { cleanKey, settledKey, tryKey } from '../run/claimKeys';

/*
 * One offer of a run, made until it reaches a verdict. The offer comes after n8n answered the
 * delivery, so one without a verdict cannot go back to the service: it is made again on the
 * service's own schedule (deliveryTiming.ts), counted from the first try's start on the process's
 * monotonic clock, and only then do its messages run as ordinary ones.
 *
 * Who makes which try is one fact, kept in n8n's processed-data store, which every process shares:
 * try n of a message's offer is made by the run that claims `try|<id>|<n>` first. The run that
 * claimed the message claims each try's key before it, and keeps it. A later run takes the offer
 * over (answerReoffer.ts) by claiming every try key left: the first run's next claim is then not
 * fresh, and it stops. Nothing here is claimed only to ask and taken back, so another process's
 * whole-record write that puts a key back (claimStore.ts) can never pass for a take-over (review
 * s7b, S7-6; s7c, S7-10). Once the offer ends, the run records it (`settled|<id>`): a later run
 * takes the offer over only while that record is missing, and holds it from then on, so a first
 * run that finds its end's record taken knows its messages are that later run's, whatever its
 * own verdict (review s7, S7-5; s7b, S7-8): the later run's offer gets the same verdict (a
 * refusal) or meets the question no longer waiting after a try that may have resumed it
 * (counted as taken). An offer n8n cancelled (runCancel.ts) has no end: it is left for a later run
 * to make again.
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
	/** Messages whose offer this run took over (answerReoffer.ts): it holds their tries and end. */
	heldIds?: ReadonlySet<string>;
	/** Of those, the ones an earlier run made a try of that may have resumed the question. */
	triedBefore?: ReadonlySet<string>;
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

export const settledKeys = (ids: readonly string[]) => ids.map(settledKey);

/** How many tries an offer makes: the first, and one after each pause. */
const OFFER_TRIES = OFFER_RETRY_PAUSES_MS.length + 1;

/** Every try's number, 0 to OFFER_TRIES - 1. */
export const TRY_NUMBERS: readonly number[] = [...Array(OFFER_TRIES).keys()];

/** The keys of try `attempt` of `ids`' offer; every try's when `attempt` is undefined. */
export const tryKeys = (ids: readonly string[], attempt?: number) =>
	ids.flatMap((id) =>
		(attempt === undefined ? TRY_NUMBERS : [attempt]).map((index) => tryKey(id, index)),
	);

/**
 * The keys that record try `attempt` of `ids`' offer as one that resumed nothing (refused by the
 * node or by n8n, the node's own 503, or no connection made): a later run that takes the offer
 * over, or n8n's Retry, counts the others as tries that may have resumed the question.
 */
export const cleanKeys = (ids: readonly string[], attempt: number) =>
	ids.map((id) => cleanKey(id, attempt));

/** The messages of the offer this run claimed first, not those it took over (it holds those). */
const ownIds = (run: OfferRun) => run.messageIds.filter((id) => !run.heldIds?.has(id));

/**
 * Records that the offer reached its end, so no later run makes it again: the messages whose end a
 * later run holds already (it took their offer over meanwhile) are returned, and run in no run
 * here. A failed store says none: the run goes on.
 */
export async function settle(run: OfferRun): Promise<Set<string>> {
	const own = ownIds(run);
	if (!run.claimant || own.length === 0) return new Set();
	const fresh = await claimed(run.context, settledKeys(own), run.claimant);
	return new Set(fresh ? own.filter((id) => !fresh.has(settledKey(id))) : []);
}

/** Records try `attempt` of the run's own messages as one that resumed nothing; a failure keeps it unsaid. */
async function recordClean(run: OfferRun, attempt: number): Promise<void> {
	const own = ownIds(run);
	if (run.claimant && own.length > 0)
		await claimed(run.context, cleanKeys(own, attempt), run.claimant);
}

/**
 * The offer's messages whose try `attempt` this run makes: those it claimed the try of first, and
 * those it took over. A failed store says all: the run goes on.
 */
async function stillOurs(run: OfferRun, attempt: number): Promise<string[]> {
	const own = ownIds(run);
	if (!run.claimant || own.length === 0) return run.messageIds;
	const fresh = await claimed(run.context, tryKeys(own, attempt), run.claimant);
	if (!fresh) return run.messageIds;
	return run.messageIds.filter(
		(id) => run.heldIds?.has(id) === true || fresh.has(tryKey(id, attempt)),
	);
}

/**
 * The offer made until it reaches a verdict. n8n refusing it (the execution no longer waits) after
 * a try that ended without a verdict where the node may have resumed (a time-out, not the node's
 * own 503, which resumes nothing) means in the common case that try resumed it: n8n answered after
 * the time-out. The first message that try offered (the node resumes with the first it accepts)
 * then counts as taken, and runs no bot; when a later run took that message over since, the rest
 * run as messages (review s7c, S7-9: the next message counted, and lost). The tries of the run this
 * one took the offer over from count alike (triedBefore; review s7, S7-2: the "1" ran, and resumed).
 */
export async function offerUntilDecided(run: OfferRun): Promise<OfferEnd> {
	const { context, entry } = run;
	const what = () => `messages ${run.messageIds.join(', ')}`;
	const takenOverIds: string[] = [];
	const start = monotonicNow();
	/** The first message of each try that may have resumed the question, in try order. */
	const mayHaveResumedWith = run.messageIds.filter((id) => run.triedBefore?.has(id)).slice(0, 1);
	let scheduled = 0;
	let next = start;
	for (let attempt = 0; ; attempt++) {
		if (attempt > 0 && !(await paused(context, next - monotonicNow()))) break;
		if (cancelled(context)) break;
		const ours = await stillOurs(run, attempt);
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
		// Refused by the node or by n8n, or failed where nothing was reached: no resume.
		const resumedNothing =
			verdict.failed === undefined ? verdict.taken === undefined : verdict.resumedNothing === true;
		if (resumedNothing) await recordClean(run, attempt);
		if (verdict.failed === undefined) {
			if (!verdict.notWaiting || mayHaveResumedWith.length === 0)
				return { taken: verdict.taken, takenOverIds };
			const taken = mayHaveResumedWith.find((id) => run.messageIds.includes(id));
			context.logger.warn(
				taken === undefined
					? `Messaging Automation Trigger: the Send and Wait question ${entry.question_id} no longer waits; the message an earlier try of its offer most likely resumed it with is a later run's now, so ${what()} run as messages`
					: `Messaging Automation Trigger: message ${taken} counted as the answer to the Send and Wait question ${entry.question_id}: an earlier try of its offer got no answer in time and the question no longer waits, so that try most likely resumed it; the message runs no workflow`,
			);
			return { taken, takenOverIds };
		}
		if (!resumedNothing) mayHaveResumedWith.push(run.messageIds[0]);
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
