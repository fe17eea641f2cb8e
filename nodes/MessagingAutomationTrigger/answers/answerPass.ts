import {
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { isRecord } from '../../shared/guards';
import { answeredTurnJson, OFFERS_FIELD } from '../run/output';
import { offer } from './answerOffers';
import type { AnswerOffer } from './answerRoute';

/*
 * The run's first step makes the answer offers its delivery found (answerRoute.ts), after the run
 * claimed its messages in n8n's processed-data store (runClaim.ts), which every n8n process shares:
 * so one claim per answer. A copy of the delivery, a second webhook process holding part of the
 * burst, or the service's retry finds the message claimed and offers it nowhere, whatever n8n line
 * (1.x resumes as often as asked) and whether Deduplicate Events is on or off; a message a question
 * took runs in no run. The offer comes after n8n answered the delivery, so a failed one cannot go
 * back to the service: it is tried again here, as the service would send it again, and only then
 * does the message run as an ordinary one.
 */

/** Pauses before an offer that reached no verdict is made again (the node could not look up or read). */
const OFFER_RETRY_PAUSES_MS = [3000, 30_000];

const offersOf = (item: INodeExecutionData): AnswerOffer[] => {
	const value = item.json[OFFERS_FIELD];
	return Array.isArray(value) ? (value.filter(isRecord) as unknown as AnswerOffer[]) : [];
};

/** Whether the item's delivery found messages to offer: its message claim decides strictly. */
export const hasOffers = (item: INodeExecutionData) => offersOf(item).length > 0;

/** The message the question took, if any, trying again while the offer reaches no verdict. */
async function taken(
	context: IExecuteFunctions,
	entry: AnswerOffer,
	conversationId: string | undefined,
	messageIds: string[],
): Promise<string | undefined> {
	for (let attempt = 0; ; attempt++) {
		const verdict = await offer(context, entry.link, conversationId, messageIds);
		if (verdict.failed === undefined) return verdict.taken;
		const pause = OFFER_RETRY_PAUSES_MS[attempt];
		context.logger.warn(
			`Messaging Automation Trigger: messages ${messageIds.join(', ')} could not be offered to the Send and Wait question ${entry.question_id} (${verdict.failed})${pause === undefined ? '; they run as messages' : `; offered again in ${pause / 1000} s`}`,
		);
		if (pause === undefined) return undefined;
		await sleep(pause);
	}
}

/** The messages of `item` its questions took; only those this run claimed are offered. */
async function answeredIn(
	context: IExecuteFunctions,
	item: INodeExecutionData,
	claimedHere: (id: string) => boolean,
): Promise<Set<string>> {
	const conversationId =
		typeof item.json.conversation_id === 'string' ? item.json.conversation_id : undefined;
	const answered = new Set<string>();
	await Promise.all(
		offersOf(item).map(async (entry) => {
			const ids = entry.message_ids.filter(claimedHere);
			if (ids.length === 0) return;
			const id = await taken(context, entry, conversationId, ids);
			if (id === undefined) return;
			context.logger.info(
				`Messaging Automation Trigger: message ${id} answered the Send and Wait question ${entry.question_id}`,
			);
			answered.add(id);
		}),
	);
	return answered;
}

function withoutOffers(item: INodeExecutionData): INodeExecutionData {
	const json: IDataObject = { ...item.json };
	delete json[OFFERS_FIELD];
	return { ...item, json };
}

/** `item` without the messages a question took: nothing when they were all it held. */
function rest(item: INodeExecutionData, answered: ReadonlySet<string>): INodeExecutionData[] {
	const plain = withoutOffers(item);
	if (answered.size === 0) return [plain];
	const grouped = Array.isArray(item.json.message_ids)
		? item.json.message_ids.filter((id): id is string => typeof id === 'string')
		: undefined;
	if (!grouped) return [];
	if (grouped.every((id) => answered.has(id))) return [];
	return [{ ...plain, json: answeredTurnJson(plain.json, answered) }];
}

/**
 * The run's items once their offers are made: a message a question took is taken out (a grouped
 * run names it in `burst.answered_message_ids`), an item left with none goes no further. `fresh`:
 * the keys this run claimed first (runClaim.ts); undefined when nothing was claimed (a test run,
 * or the store failed), and every offer is made.
 */
export async function passAnswers(
	context: IExecuteFunctions,
	outputs: INodeExecutionData[][],
	fresh: ReadonlySet<string> | undefined,
): Promise<{ outputs: INodeExecutionData[][]; answered: number }> {
	let answered = 0;
	const claimedHere = (id: string) => fresh === undefined || fresh.has(`message|${id}`);
	const passed = await Promise.all(
		outputs.map(
			async (list) =>
				await Promise.all(
					list.map(async (item) => {
						if (!hasOffers(item)) return [item];
						const taken = await answeredIn(context, item, claimedHere);
						answered += taken.size;
						return rest(item, taken);
					}),
				),
		),
	);
	return { outputs: passed.map((list) => list.flat()), answered };
}
