import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { hasOffers, offersIn, passAnswers, withheldAnswers } from '../answers/answerPass';
import { takeOverUnsettled } from '../answers/answerReoffer';
import { NONE_TAKEN_OVER, type TakenOver } from '../answers/takenOver';
import { retriedRun } from './retriedRun';
import { cancelled } from '../answers/runCancel';
import { afterOfferKeys, claimedAfterOffers } from './afterOffers';
import { isCaughtUp } from './caughtUp';
import { previousId, vouchedCatchUps, withoutStrayClaims } from './vouchedClaims';
import { answerKey, eventKey, messageKey } from './claimKeys';
import { markEndedHere, markExecution } from './executionMarks';
import { claimed, takeBack, type Claimant } from './claimStore';
import { narrowedRun } from './narrowedRun';
import { groupedIds, refuseUnclaimed, whenUnclaimed } from './unclaimedRun';

/*
 * A run's delivery is answered by n8n once it has recorded the run (deliveryReply.ts), so n8n stopped
 * before that leaves the delivery to the service's retry and nothing is lost. The price: stopped
 * just after, or answering after the service stopped waiting, the same run is handed to n8n twice.
 * The trigger's first step of every run (its execute(), called by n8n after it recorded the run)
 * claims the run in n8n's processed-data store, which every n8n process shares and which outlives
 * restarts; a copy finds the claim and passes nothing on.
 */

/** The field of the stand-in item on output 0 when only a later output carries the run's item. */
const CARRIER_FIELD = 'messaging_automation_carrier';

/**
 * n8n's legacy execution order (v0) skips a start node whose first input is empty, and a run that
 * goes to Paused Chats only has an empty first output: a stand-in item keeps the step running.
 */
export function withCarrier(workflowData: INodeExecutionData[][]): INodeExecutionData[][] {
	if ((workflowData[0]?.length ?? 0) > 0) return workflowData;
	return [[{ json: { [CARRIER_FIELD]: true } }], ...workflowData.slice(1)];
}

const deduplicating = (context: IExecuteFunctions) =>
	context.getNodeParameter('options.deduplicate', 0, true) !== false;

/** The received message of an ungrouped run: claimed like a grouped one's, so the Catch-Up poll never runs it again. */
const receivedId = (item: INodeExecutionData) =>
	item.json.event_type === 'message.received' && typeof item.json.message_id === 'string'
		? item.json.message_id
		: undefined;

/**
 * What `item` claims: its messages for a grouped run (answers to offer among them; for a caught-up
 * burst, the message before it too), else its event with Deduplicate Events on and the message it
 * received (one `message|<id>` key per message, whichever node runs it).
 */
function claimKeys(item: INodeExecutionData, deduplicate: boolean): string[] {
	const messageIds = groupedIds(item);
	const previous = previousId(item);
	// A possible answer says so: for a copy that finds its question no longer waiting (wereAnswers),
	// and for a later run that offers it again (answerReoffer.ts).
	const offered = new Set(offersIn(item, () => true).flatMap((entry) => entry.messageIds));
	const answers = (ids: string[]) => ids.filter((id) => offered.has(id)).map(answerKey);
	if (messageIds)
		return [
			...[...messageIds, ...(previous ? [previous] : [])].map(messageKey),
			...answers(messageIds),
		];
	const eventId = typeof item.json.event_id === 'string' ? item.json.event_id : undefined;
	const messageId = receivedId(item);
	return [
		...(deduplicate && eventId ? [eventKey(eventId)] : []),
		...(messageId ? [messageKey(messageId), ...answers([messageId])] : []),
	];
}

/**
 * The unended offers this run takes over (answerReoffer.ts). A message whose offer it took over is
 * this run's, taken or run here: its claim is written, or a poll's run that reads it later (its
 * event lost) would run it again (S11b-3).
 */
async function takenOver(
	context: IExecuteFunctions,
	items: readonly INodeExecutionData[],
	asked: Parameters<typeof takeOverUnsettled>[2],
	claimant: Claimant,
): Promise<TakenOver> {
	const reoffered = await takeOverUnsettled(context, items, asked, claimant);
	if (reoffered.ids.size > 0) await claimed(context, [...reoffered.ids].map(messageKey), claimant);
	return reoffered;
}

/**
 * Which of `ids` a run offered as answers before: the run of a copy with Deduplicate Events off,
 * whose message an earlier run claimed, runs again unless that run offered it (the question took it,
 * or it ran there). Asked by claiming `answer|<id>`; a claim this makes is taken back at once.
 */
async function wereAnswers(
	context: IExecuteFunctions,
	ids: string[],
	claimant: Claimant,
): Promise<Set<string>> {
	if (ids.length === 0) return new Set();
	const keys = ids.map(answerKey);
	const fresh = await claimed(context, keys, claimant);
	if (!fresh) return new Set();
	await takeBack(
		context,
		keys.filter((key) => fresh.has(key)),
		claimant,
	);
	return new Set(ids.filter((id) => !fresh.has(answerKey(id))));
}

/** Runs of one event with Deduplicate Events off, not offered as answers, whose message ran before. */
const rerunIds = (
	deduplicate: boolean,
	items: readonly INodeExecutionData[],
	fresh: ReadonlySet<string>,
) =>
	deduplicate
		? []
		: items
				.filter((item) => !groupedIds(item) && !hasOffers(item))
				.map(receivedId)
				.filter((id): id is string => id !== undefined && !fresh.has(messageKey(id)));

/** `item` as it goes on after the claim: whole, narrowed to the messages no earlier run held, or not at all. */
function passedOn(
	context: IExecuteFunctions,
	item: INodeExecutionData,
	fresh: ReadonlySet<string>,
	deduplicate: boolean,
	answeredBefore: ReadonlySet<string>,
): INodeExecutionData[] {
	const keys = claimKeys(item, deduplicate);
	const messageIds = groupedIds(item);
	const keep = new Set((messageIds ?? []).filter((id) => fresh.has(messageKey(id))));
	// A run of one event goes on whole or not at all; with Deduplicate Events off, every delivery
	// runs (its message's key only tells the Catch-Up poll it ran), but a possible answer: its
	// message's claim is the answer's (answerPass.ts).
	const rerun = !deduplicate && !hasOffers(item) && !answeredBefore.has(receivedId(item) ?? '');
	const unheld = rerun || keys.every((key) => fresh.has(key));
	const passed = messageIds ? keep.size : unheld ? keys.length : 0;
	const whole = passed === (messageIds ?? keys).length;
	if (isCaughtUp(item)) {
		if (passed > 0) logCatchUp(context, item, keep);
		return passed === 0 ? [] : whole ? [item] : [narrowedRun(item, keep)];
	}
	if (whole) return [item];
	const what = messageIds
		? `messages ${messageIds.join(',')}`
		: `event ${String(item.json.event_id)}`;
	if (passed === 0) {
		context.logger.info(
			`Messaging Automation Trigger: the run of ${what} was handed to n8n again after it was recorded; this copy passes nothing on`,
		);
		return [];
	}
	context.logger.info(
		`Messaging Automation Trigger: of the run of ${what}, only ${[...keep].join(',')} had not run before; it runs with those`,
	);
	return [narrowedRun(item, keep)];
}

/** `fresh` with the keys of the messages whose offer this run took over (answerReoffer.ts): they are this run's now. */
function withReoffered(
	items: readonly INodeExecutionData[],
	fresh: ReadonlySet<string>,
	reoffered: ReadonlySet<string>,
	deduplicate: boolean,
): ReadonlySet<string> {
	if (reoffered.size === 0) return fresh;
	// A run of one event goes on only with all its keys: the item of the message offered again.
	const own = items.filter((item) => !groupedIds(item) && reoffered.has(receivedId(item) ?? ''));
	return new Set([
		...fresh,
		...[...reoffered].map(messageKey),
		...own.flatMap((item) => claimKeys(item, deduplicate)),
	]);
}

/** A caught-up burst that runs: one line in n8n's log, and the execution says so. */
function logCatchUp(
	context: IExecuteFunctions,
	item: INodeExecutionData,
	keep: ReadonlySet<string>,
): void {
	const caughtUp = item.json.caught_up as { age_seconds?: unknown; reason?: unknown };
	// A possible answer among them goes to its question first: only what it does not take runs (R9b-5).
	const then = hasOffers(item)
		? 'a possible answer among them is offered to its Send and Wait question first; what it does not take runs now, once'
		: 'they run now, once';
	context.logger.warn(
		`Messaging Automation Trigger: caught up ${keep.size} message(s) ${[...keep].join(',')} in conversation ${String(item.json.conversation_id)}, ${String(caughtUp.age_seconds)} s old, saved by the service but not run (${String(caughtUp.reason)}); ${then}`,
	);
	markExecution(context, 'messaging_automation_caught_up', [...keep].join(',').slice(0, 250));
}

/** Why a run passes nothing on, when no question took an answer of it (R9b-9: a poll's is no copy). */
const endedHereWhy = (claimant: Claimant) =>
	claimant.polled ? 'nothing to catch up: ran or offered before' : 'copy of a recorded run';

/**
 * The trigger's step in the run: its items as handed over; for a grouped run, only the messages
 * no earlier run held (a burst read again with a message the service saved late, or a copy of a
 * recorded run); nothing when none is left. A caught-up burst's item (caughtUp.ts) is claimed the
 * same way: in the common case its messages ran already and it goes no further.
 *
 * Every grouped run claims each of its messages (those besides its answer offers once the offers
 * ended, afterOffers.ts), whatever Deduplicate Events says: a message is
 * in exactly one run however its deliveries came (a burst's identity is its messages, never the
 * event that happened to close it). A run of one event claims the event, only with Deduplicate
 * Events on: with it off, every delivery is meant to run, a resent one too. Only runs a delivery
 * or a poll started claim, and a Retry of a poll's run: a test run, or n8n's Retry of a delivery's
 * crashed or failed run, is asked for by a person and passes on all it holds; such a Retry records
 * its messages as run all the same (recordRetried).
 * When n8n's store fails the claim for CLAIM_WAITS_MS, unclaimedRun.ts decides what goes on.
 */
export async function claimRun(
	context: IExecuteFunctions,
	claimant: Claimant,
	/** The node's outputs (the handed-over data's lists). */
	outputCount: number,
): Promise<INodeExecutionData[][]> {
	const outputs = Array.from({ length: outputCount }, (_, index) =>
		context.getInputData(index).filter((item) => item.json[CARRIER_FIELD] !== true),
	);
	// Read once: n8n resolves every parameter of the node for each read.
	const deduplicate = deduplicating(context);
	const keys = outputs.flat().flatMap((item) => claimKeys(item, deduplicate));
	const mode = context.getMode();
	// A poll's run is never the only way its messages run: its Retry claims as the run did (R11-3).
	if (mode === 'retry' && claimant.polled !== true)
		return await retriedRun(context, outputs, keys, claimant);
	// 'trigger': a run the Catch-Up poll started; a test run ('manual') claims nothing.
	if (!['webhook', 'trigger', 'retry'].includes(mode) || keys.length === 0)
		return (await passAnswers(context, outputs, undefined)).outputs;
	// A burst's messages besides its answers are claimed once the offers ended (afterOffers.ts).
	const later = afterOfferKeys(outputs.flat());
	const claims = await claimed(
		context,
		[...new Set(keys)].filter((key) => !later.has(key)),
		claimant,
	);
	if (!claims) refuseUnclaimed(context, claimant, outputs.flat());
	const vouched =
		claims &&
		(await withoutStrayClaims(
			context,
			await vouchedCatchUps(context, outputs.flat(), new Set([...claims, ...later])),
			claimant,
			outputs.flat(),
		));
	const reoffered = vouched
		? await takenOver(context, outputs.flat(), { asked: keys, claims, vouched }, claimant)
		: NONE_TAKEN_OVER;
	const fresh = vouched && withReoffered(outputs.flat(), vouched, reoffered.ids, deduplicate);
	const answeredBefore = fresh
		? await wereAnswers(context, rerunIds(deduplicate, outputs.flat(), fresh), claimant)
		: new Set<string>();
	const claimedRun = outputs.map((list) =>
		list.flatMap((item) =>
			fresh
				? passedOn(context, item, fresh, deduplicate, answeredBefore)
				: whenUnclaimed(context, item),
		),
	);
	const { outputs: offered, answered } = fresh
		? await passAnswers(context, claimedRun, fresh, claimant, reoffered)
		: { outputs: withheldAnswers(context, claimedRun), answered: 0 };
	// Cancelled by n8n, which drops what the step passes on: the burst's others stay unclaimed.
	if (cancelled(context)) return outputs.map(() => []);
	const passed = fresh
		? await claimedAfterOffers(context, offered, later, claimant, outputs.flat())
		: offered;
	markEndedHere(context, passed, answered, endedHereWhy(claimant));
	return passed;
}
