import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { ANSWER_OFFER_TIMEOUT_MS } from '../../shared/conversation/deliveryTiming';
import { claimed, takeBack, type Claimant } from '../run/claimStore';
import { ownIds } from '../run/unclaimedRun';
import { offersIn } from './answerPass';
import { cleanKeys, settledKeys, tryKeys, TRY_NUMBERS } from './offerTries';
import { paused } from './runCancel';
import { NONE_TAKEN_OVER, type TakenOver } from './takenOver';
import { answerKey, messageKey, settledKey, tryKey } from '../run/claimKeys';

/*
 * n8n stopped (or cancelled the run) after a run claimed an answer and before its offer ended: the
 * service's retry finds the message claimed, so no run would ever offer or run it. Its run, or
 * when n8n had answered the delivery already (no retry comes) the run of the person's next message
 * (answerRoute.ts: earlierAnswer), takes the offer over when its delivery's probe found the
 * question still waiting (its item names the offer), a run claimed the message as an answer, and
 * no run recorded the offer's end (`settled|<id>`, offerTries.ts). It first claims every try of
 * the offer left (offerTries.ts tryKeys), so that the earlier run, if it only paused between
 * tries, makes no more; waits until that run's try in flight, begun before, has ended and its end
 * is recorded; and then takes that record, so one later run at most makes the offer again. The
 * offer is then this run's, made and ended by the one rule of a first offer (answerPass.ts: taken,
 * or run as a message), the earlier run's tries counted as its own (a try that may have resumed
 * the question). No two offers of one message are made at once, which shields n8n 1.x (it resumes
 * once for each offer that reaches the node before the first resume is written).
 */

/** The earlier run's offer in flight ends (its time-out), and its end is recorded, within this. */
const EARLIER_OFFER_ENDS_MS = ANSWER_OFFER_TIMEOUT_MS + 1000;

/**
 * What this run's own claim said of answer keys (runClaim.ts): by message, whether it was the first
 * to claim `answer|<id>`. Its item's possible answers are claimed with their messages, so for those
 * the run knows, with no second ask, whether an earlier run claimed them as answers.
 */
type AnswerClaims = ReadonlyMap<string, boolean>;

/**
 * Which of `ids` a run claimed as answers (`answer|<id>`, runClaim.ts): an earlier answer the
 * trigger never offered (it was inactive then) stays unoffered. The run's own claim says it for
 * its item's messages (`known`): a stray claim of its own, taken back and put back by another
 * process's write, then never reads as an earlier run's (review s9c, R9c-1). The others are asked
 * by claiming; a claim this makes is taken back at once.
 */
async function claimedBefore(
	context: IExecuteFunctions,
	ids: string[],
	claimant: Claimant,
	known: AnswerClaims = new Map(),
): Promise<string[]> {
	const before = ids.filter((id) => known.get(id) === false);
	const asked = ids.filter((id) => !known.has(id));
	if (asked.length === 0) return before;
	const fresh = await claimed(context, asked.map(answerKey), claimant);
	if (!fresh) return before;
	await takeBack(context, [...fresh], claimant);
	return [...before, ...asked.filter((id) => !fresh.has(answerKey(id)))];
}

/**
 * Of `ids`, whose tries left this run holds (`tries`: the keys it claimed first), the ones the
 * earlier run made a try of that may have resumed the question: a try key it claimed, with no
 * record that the try resumed nothing (offerTries.ts cleanKeys). Asked by claiming those records;
 * a claim this makes is taken back at once (put back, a later run counts that try as clean).
 */
async function triedBefore(
	context: IExecuteFunctions,
	ids: readonly string[],
	tries: ReadonlySet<string>,
	claimant: Claimant,
): Promise<Set<string>> {
	const made = ids.flatMap((id) =>
		TRY_NUMBERS.filter((attempt) => !tries.has(tryKey(id, attempt))).map((attempt) => ({
			id,
			attempt,
		})),
	);
	if (made.length === 0) return new Set();
	const keys = made.flatMap(({ id, attempt }) => cleanKeys([id], attempt));
	const unrecorded = await claimed(context, keys, claimant);
	// A failed store says all: each try counts as one that may have resumed.
	if (!unrecorded) return new Set(made.map(({ id }) => id));
	await takeBack(context, [...unrecorded], claimant);
	return new Set(
		made
			.filter(({ id, attempt }) => unrecorded.has(cleanKeys([id], attempt)[0]))
			.map(({ id }) => id),
	);
}

/**
 * The take-over of the offers of `ids` that a run claimed as answers (claimedBefore) and whose end
 * no run recorded: their tries left taken, so that the earlier run, if alive, makes no more; a
 * wait until its try in flight has ended and its end is recorded; then the record of the end,
 * which one later run at most takes.
 */
async function takeOver(
	context: IExecuteFunctions,
	ids: string[],
	claimant: Claimant,
	known?: AnswerClaims,
): Promise<TakenOver> {
	const answers = await claimedBefore(context, ids, claimant, known);
	if (answers.length === 0) return NONE_TAKEN_OVER;
	const tries = await claimed(context, tryKeys(answers), claimant);
	// Cancelled, or the store failed: the tries taken stop the earlier run, and the end's record
	// stays free, so the next run of the chat takes the offer over.
	if (!tries || !(await paused(context, EARLIER_OFFER_ENDS_MS))) return NONE_TAKEN_OVER;
	const unsettled = await claimed(context, settledKeys(answers), claimant);
	const mine = new Set(answers.filter((id) => unsettled?.has(settledKey(id))));
	if (mine.size === 0) return NONE_TAKEN_OVER;
	context.logger.warn(
		`Messaging Automation Trigger: messages ${[...mine].join(', ')} were claimed as answers by an earlier run that never ended their offer (n8n stopped or cancelled it), and their Send and Wait question still waits: offered again`,
	);
	const tried = await triedBefore(context, [...mine], tries, claimant);
	return { ids: mine, endsHeld: mine, tried };
}

/**
 * n8n's Retry of a run's own answers: offered again, as a person asked, without claiming each try:
 * it claims their tries left (the tries before count as its own) and the records of the ends no
 * run made, which it holds, so that no later run makes those offers again. One whose end a run
 * recorded, most often the retried run's own before it failed, is offered again all the same: the
 * question refuses it again (it runs) or no longer waits (taken, when a try may have resumed it).
 * No wait: the run it retries has ended.
 */
async function holdOwn(
	context: IExecuteFunctions,
	ids: string[],
	claimant: Claimant,
): Promise<TakenOver> {
	if (ids.length === 0) return NONE_TAKEN_OVER;
	const tries = await claimed(context, tryKeys(ids), claimant);
	const ends = tries && (await claimed(context, settledKeys(ids), claimant));
	if (!tries || !ends) return NONE_TAKEN_OVER;
	return {
		ids: new Set(ids),
		endsHeld: new Set(ids.filter((id) => ends.has(settledKey(id)))),
		tried: await triedBefore(context, ids, tries, claimant),
	};
}

/**
 * n8n's Retry of a run (its first step failed, or n8n stopped during it) offers its item's own
 * answers again (holdOwn). An earlier answer the item carries (answerRoute.ts earlierAnswer) is
 * another run's: the Retry takes it over as the next message's run would (takeOver), only when a
 * run claimed it as an answer and none ended its offer, once that run's try in flight has ended
 * (review s9: R9-3, R9-7); else that run decides it, or no run offers it.
 */
export async function holdForRetry(
	context: IExecuteFunctions,
	items: readonly INodeExecutionData[],
	claimant: Claimant,
): Promise<TakenOver> {
	const offered = items.flatMap((item) => {
		const own = ownIds(item);
		return offersIn(item, () => true).flatMap((entry) =>
			entry.messageIds.map((id) => ({ id, earlier: !own.includes(id) })),
		);
	});
	const own = await holdOwn(
		context,
		offered.filter(({ earlier }) => !earlier).map(({ id }) => id),
		claimant,
	);
	const earlier = offered.filter((entry) => entry.earlier).map(({ id }) => id);
	const earlierHeld =
		earlier.length > 0 ? await takeOver(context, earlier, claimant) : NONE_TAKEN_OVER;
	const notOffered = earlier.filter((id) => !earlierHeld.ids.has(id));
	if (notOffered.length > 0)
		context.logger.warn(
			`Messaging Automation Trigger: earlier answers ${notOffered.join(', ')}: another run ended their offer to the Send and Wait question, or makes it now, or no run claimed them as answers; this Retry leaves them`,
		);
	return {
		ids: new Set([...own.ids, ...earlierHeld.ids]),
		endsHeld: new Set([...own.endsHeld, ...earlierHeld.endsHeld]),
		tried: new Set([...own.tried, ...earlierHeld.tried]),
		notOffered: new Set(notOffered),
	};
}

/**
 * The messages of `items`' offers that an earlier run claimed (not in `fresh`) and never settled,
 * whose offer this run now holds (it took their tries left and their `settled|<id>` record).
 */
export async function takeOverUnsettled(
	context: IExecuteFunctions,
	items: readonly INodeExecutionData[],
	/**
	 * The run's first claim: the keys it made (`asked`), those it made first (`claims`), and of those
	 * the ones it vouches for (`vouched`, runClaim.ts).
	 */
	claim: { asked: readonly string[]; claims: ReadonlySet<string>; vouched: ReadonlySet<string> },
	claimant: Claimant,
): Promise<TakenOver> {
	const fresh = claim.vouched;
	const ids = items.flatMap((item) => {
		const own = ownIds(item);
		// An earlier message is asked about only by the run that holds the item's own: not by its copies.
		const holds = own.some((id) => fresh.has(messageKey(id)));
		return offersIn(
			item,
			(id) => !fresh.has(messageKey(id)) && (holds || own.includes(id)),
		).flatMap((entry) => entry.messageIds);
	});
	if (ids.length === 0) return NONE_TAKEN_OVER;
	const asked = new Set(claim.asked);
	const known: AnswerClaims = new Map(
		ids.filter((id) => asked.has(answerKey(id))).map((id) => [id, claim.claims.has(answerKey(id))]),
	);
	return await takeOver(context, ids, claimant, known);
}
