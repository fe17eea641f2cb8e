import { type IDataObject, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { isRecord } from '../../shared/guards';
import { earlierAnswerItem } from '../run/caughtUp';
import { answeredTurnJson, OFFERS_FIELD } from '../run/output';
import { takeBack, type Claimant } from '../run/claimStore';
import { NONE_TAKEN_OVER, type TakenOver } from './takenOver';
import type { AnswerOffer } from './answerRoute';
import { offerUntilDecided, settle, settledKeys } from './offerTries';
import { messageKey } from '../run/claimKeys';
import { ownIds } from '../run/unclaimedRun';

/*
 * The run's first step makes the answer offers its delivery found (answerRoute.ts), after the run
 * claimed the messages it offers in n8n's processed-data store (runClaim.ts), which every n8n
 * process shares: so one claim per answer (the burst's others are claimed after, afterOffers.ts). A copy of the delivery, a second webhook process holding part of the
 * burst, or the service's retry finds the message claimed and runs it nowhere, whatever n8n line
 * (1.x resumes once for each offer that reaches the node before the first resume is written) and whether Deduplicate Events is on or off; it offers it again
 * only when no run ended that offer (answerReoffer.ts), and ends it here. A message a question took runs in no run.
 * The offer comes after n8n answered the delivery, so a failed one cannot go back to the service:
 * it is tried again (offerTries.ts), and only then does the message run as an ordinary one.
 */

const offersOf = (item: INodeExecutionData): AnswerOffer[] => {
	const value = item.json[OFFERS_FIELD];
	return Array.isArray(value) ? (value.filter(isRecord) as unknown as AnswerOffer[]) : [];
};

/** Whether the item's delivery found messages to offer: its message claim decides strictly. */
export const hasOffers = (item: INodeExecutionData) => offersOf(item).length > 0;

/** An item's offers with the messages `offered` lets this run offer, and its conversation. */
export function offersIn(
	item: INodeExecutionData,
	offered: (id: string) => boolean,
): Array<{ entry: AnswerOffer; conversationId: string | undefined; messageIds: string[] }> {
	const conversationId =
		typeof item.json.conversation_id === 'string' ? item.json.conversation_id : undefined;
	return offersOf(item).flatMap((entry) => {
		const messageIds = entry.message_ids.filter(offered);
		return messageIds.length === 0 ? [] : [{ entry, conversationId, messageIds }];
	});
}

/**
 * What the item's offers ended in: the messages the questions took, those that run nowhere here
 * (a later run offers them now, or n8n cancelled the run before their offer ended), and those whose
 * offer ended here without a question taking them: they run as ordinary messages (rest).
 */
interface Passed {
	answered: Set<string>;
	takenOver: Set<string>;
	refused: Set<string>;
}

/**
 * The messages of `item` its questions took; only those this run claimed are offered, or whose
 * offer it took over from an earlier run (`reoffered`, answerReoffer.ts).
 */
async function answeredIn(
	context: IExecuteFunctions,
	item: INodeExecutionData,
	claimedHere: (id: string) => boolean,
	claimant: Claimant | undefined,
	reoffered: TakenOver,
): Promise<Passed> {
	const passed: Passed = { answered: new Set(), takenOver: new Set(), refused: new Set() };
	await Promise.all(
		offersIn(item, claimedHere).map(async (offering) => {
			// A Retry's earlier answers another run ended or decides: that run's.
			const left = offering.messageIds.filter((id) => !reoffered.notOffered?.has(id));
			for (const id of offering.messageIds) if (!left.includes(id)) passed.takenOver.add(id);
			if (left.length === 0) return;
			offering.messageIds = left;
			const heldIds = new Set(offering.messageIds.filter((id) => reoffered.ids.has(id)));
			const run = { context, claimant, heldIds, triedBefore: reoffered.tried, ...offering };
			const end = await offerUntilDecided(run);
			for (const id of end.takenOverIds ?? []) passed.takenOver.add(id);
			if (end.takenOver || end.cancelled) {
				for (const id of offering.messageIds) passed.takenOver.add(id);
				// A later run of their chat offers them again: the record of the end stays free.
				const ends = [...heldIds].filter((id) => reoffered.endsHeld.has(id));
				if (end.cancelled && ends.length > 0 && claimant)
					await takeBack(context, settledKeys(ends), claimant);
				return;
			}
			// A later run took these over since their last try: its offer decides them.
			const lateTakenOver = await settle(run);
			for (const id of run.messageIds) {
				if (lateTakenOver.has(id)) passed.takenOver.add(id);
				else if (id !== end.taken) passed.refused.add(id);
			}
			if (heldIds.size > 0 && end.taken === undefined)
				context.logger.warn(
					`Messaging Automation Trigger: messages ${offering.messageIds.join(', ')}, offered again, were not taken by the Send and Wait question ${offering.entry.question_id}: they run as ordinary messages in this run`,
				);
			if (end.taken === undefined) return;
			context.logger.info(
				`Messaging Automation Trigger: message ${end.taken} answered the Send and Wait question ${offering.entry.question_id}`,
			);
			passed.answered.add(end.taken);
		}),
	);
	return passed;
}

function withoutOffers(item: INodeExecutionData): INodeExecutionData {
	const json: IDataObject = { ...item.json };
	delete json[OFFERS_FIELD];
	return { ...item, json };
}

/** The earlier answers an item's offers carry (answerRoute.ts: earlierAnswer). */
const earlierIds = (item: INodeExecutionData): string[] =>
	offersOf(item).flatMap((entry) => (entry.earlier ?? []).map(({ message }) => String(message.id)));

/** `item` without the messages that run nowhere here (`gone`): nothing when they were all it held. */
function ownRest(
	item: INodeExecutionData,
	own: readonly string[],
	gone: ReadonlySet<string>,
): INodeExecutionData[] {
	if (!own.some((id) => gone.has(id))) return [item];
	if (!Array.isArray(item.json.message_ids) || own.every((id) => gone.has(id))) return [];
	const taken = new Set(own.filter((id) => gone.has(id)));
	return [{ ...item, json: answeredTurnJson(item.json, taken) }];
}

/**
 * What runs of `item` once its offers ended, by one rule for a first offer and an offer made again:
 * a message a question took, or that runs nowhere here (`gone`), is taken out; one whose offer ended
 * here untaken (`refused`) runs as the ordinary message it then is. The item's own messages run in
 * it; an answer written before the turn (answerRoute.ts: earlierAnswer), no message of the item,
 * runs as an item of its own after it, in written order, marked `caught_up` (run/caughtUp.ts).
 */
function rest(
	item: INodeExecutionData,
	gone: ReadonlySet<string>,
	refused: ReadonlySet<string> = new Set(),
): INodeExecutionData[] {
	const plain = withoutOffers(item);
	const own = ownIds(item);
	const earlier = new Map(
		offersOf(item)
			.flatMap((entry) => entry.earlier ?? [])
			.filter(({ message }) => refused.has(String(message.id)) && !own.includes(String(message.id)))
			.map((entry) => [String(entry.message.id), entry]),
	);
	return [
		...ownRest(plain, own, gone),
		...[...earlier.values()]
			.sort((a, b) => a.at - b.at)
			.map((entry) => earlierAnswerItem(plain, entry)),
	];
}

/**
 * The run's items once their offers are made: a message a question took is taken out (a grouped
 * run names it in `burst.answered_message_ids`, as it names one a later run offers now), an item
 * left with none goes no further. `fresh`: the keys this run claimed first for `claimant`
 * (runClaim.ts), with those of the messages whose offer it took over (`reoffered`); undefined when
 * nothing was claimed (a test run, or the store failed), and every offer is made.
 */
export async function passAnswers(
	context: IExecuteFunctions,
	outputs: INodeExecutionData[][],
	fresh: ReadonlySet<string> | undefined,
	claimant?: Claimant,
	reoffered: TakenOver = NONE_TAKEN_OVER,
): Promise<{ outputs: INodeExecutionData[][]; answered: number }> {
	const answered = new Set<string>();
	// The messages an item with offers answered or runs as an earlier answer of its own (rest).
	const handled = new Set<string>();
	const claimedHere = (id: string) => fresh === undefined || fresh.has(messageKey(id));
	const passed = await Promise.all(
		outputs.map(
			async (list) =>
				await Promise.all(
					list.map(async (item) => {
						if (!hasOffers(item)) return { plain: item };
						const ended = await answeredIn(context, item, claimedHere, claimant, reoffered);
						for (const id of ended.answered) {
							answered.add(id);
							handled.add(id);
						}
						for (const id of earlierIds(item)) if (ended.refused.has(id)) handled.add(id);
						return rest(item, new Set([...ended.answered, ...ended.takenOver]), ended.refused);
					}),
				),
		),
	);
	// A message an item's offer answered, or runs as an earlier answer of that item, runs in no other
	// item of the run: the Catch-Up poll's item of it, given up on, say (S11f-1).
	const unanswered = (entry: INodeExecutionData[] | { plain: INodeExecutionData }) =>
		'plain' in entry ? ownRest(entry.plain, ownIds(entry.plain), handled) : entry;
	return { outputs: passed.map((list) => list.flatMap(unanswered)), answered: answered.size };
}

/**
 * The run's items when n8n's store failed at its claim: nothing is offered, since every copy of the
 * delivery would offer too, at the same moment, and n8n 1.x resumes once for each offer that reaches the node at once (a refund
 * twice). The answers are taken out of the run, so they run no bot either; their questions keep
 * waiting for a reply that quotes them, or their links.
 */
export function withheldAnswers(
	context: IExecuteFunctions,
	outputs: INodeExecutionData[][],
): INodeExecutionData[][] {
	return outputs.map((list) =>
		list.flatMap((item) => {
			const offerings = offersIn(item, () => true);
			if (offerings.length === 0) return [withoutOffers(item)];
			const ids = new Set(offerings.flatMap((offering) => offering.messageIds));
			context.logger.warn(
				`Messaging Automation Trigger: messages ${[...ids].join(', ')} answer the Send and Wait question ${offerings.map((offering) => offering.entry.question_id).join(', ')}, but n8n's record of runs failed, so this run cannot tell whether a copy of it offers them too: they are neither offered nor run, and the question keeps waiting for a reply that quotes it, or its links`,
			);
			return rest(item, ids);
		}),
	);
}
