import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import type { WaitingQuestion } from '../answers/answerRoute';
import type { EarlierAnswer } from '../answers/earlierAnswer';
import type { HistoryEntry } from '../../shared/conversation/history';
import {
	ACTIVATION_SLACK_MS,
	missedBursts,
	type MissedBurst,
} from '../../shared/conversation/catchUp';
import { MAX_PAGES } from '../../shared/conversation/reader';
import type { TimelineMessage } from '../../shared/conversation/timeline';
import { eventMessage, type EventEnvelope, type EventMessage } from '../../shared/webhooks/events';
import type { DeliveryContext } from '../receive/deliveryContext';
import { burstPauseAt } from '../../shared/conversation/takeover';
import { readFields, type Turn } from '../hold/turn';
import type { TriggerSettings } from '../settings';
import { TriggerState } from '../state';
import { turnItemJson } from './output';
import { previousPersonMessage } from './previousMessage';
import type { TakeoverCheck } from './takeoverOutput';

/*
 * Catch Up Missed Messages: a grouped burst's run also carries, as items of their own, the bursts
 * of the chat its read shows the bot never saw (shared/conversation/catchUp.ts). Each is claimed
 * like any burst (runClaim.ts): one that ran already passes nothing on, so in the common case
 * (every event delivered) the items go no further than the trigger's own step, and no read is
 * added. A caught-up message's late delivery finds its claim and runs nothing.
 */

/** Why a caught-up burst never ran, as its item says. */
export const NEVER_DELIVERED = 'event never delivered';
/** The Catch-Up poll's reason for a burst written before its workflow's activation (nodes/MessagingAutomationCatchUp). */
export const WHILE_INACTIVE = 'written while the workflow was inactive';

export interface CaughtUpItem {
	item: INodeExecutionData;
	takeover?: TakeoverCheck;
}

/** An idempotency key as the service takes it: 8 to 128 of letters, digits, `.`, `_`, `:`, `-`. */
const asKey = (text: string) => text.replace(/[^A-Za-z0-9._:-]/g, '_').slice(0, 128);

/** The event a caught-up item stands for, its last message's: the same whichever run catches it up. */
const standIn = (envelope: EventEnvelope, last: EventMessage, at: number): EventEnvelope => ({
	...envelope,
	id: asKey(`evt_caught_up:${String(last.id)}`),
	created_at: new Date(at).toISOString(),
	data: { message: last },
});

/**
 * The item of one missed burst: the fields a delivered burst's run has (its `event_id` stands in
 * for the event that never came, the same whichever run catches it up, so a reply keyed on it is
 * sent once), plus `caught_up` with why and how old its first message is.
 */
export function caughtUpItem(
	envelope: EventEnvelope,
	burst: MissedBurst,
	timeline: readonly TimelineMessage[],
	settings: Pick<TriggerSettings, 'turn'>,
	now: number,
	reason: string = NEVER_DELIVERED,
	/** What Pass Answers found for the burst (the Catch-Up poll's answer bursts, answerCatchUp.ts). */
	answers: Pick<Extract<Turn, { run: true }>, 'waitingQuestion' | 'answerOffers'> = {},
): CaughtUpItem {
	const ids = burst.messages.map((entry) => entry.id);
	const last = burst.messages[burst.messages.length - 1];
	const fields = readFields(
		timeline,
		ids,
		// The phone's lag is not known here: a missed burst is judged by its timestamps.
		burstPauseAt(timeline, ids, settings.turn.grouping),
		settings.turn,
	);
	const json: IDataObject = turnItemJson(standIn(envelope, last.message, last.at), {
		run: true,
		messages: burst.messages.map((entry) => entry.message),
		closedBy: burst.closedBy,
		...fields,
		...answers,
	});
	json.caught_up = {
		reason,
		age_seconds: Math.max(0, Math.round((now - burst.messages[0].at) / 1000)),
		previous_message_id: previousPersonMessage(timeline, burst.messages[0].id),
	};
	return { item: { json }, takeover: fields.takeover };
}

/**
 * How far behind the service's clock the phone's timestamps run, by the delivered message: its
 * event's queue time less its timestamp (0 when unknown or ahead). An upload's lag is larger than
 * the clock's own, so a burst uploaded with the delivered one is judged no older than it is.
 */
function phoneLag(envelope: EventEnvelope, delivery: DeliveryContext): number {
	const writtenAt = Date.parse(eventMessage(envelope)?.timestamp ?? '');
	if (delivery.queuedAt === undefined || Number.isNaN(writtenAt)) return 0;
	return Math.max(0, delivery.queuedAt - writtenAt);
}

/**
 * The missed bursts a grouped burst's run carries: none with Catch Up Missed Messages off, for a
 * test run, or for a trigger not activated since it could catch up (its floor is unknown).
 */
export function caughtUpItems(
	context: IWebhookFunctions,
	envelope: EventEnvelope,
	settings: TriggerSettings,
	delivery: DeliveryContext,
	turn: Extract<Turn, { run: true }>,
): CaughtUpItem[] {
	const { read, messages } = turn;
	const grouping = settings.turn.grouping;
	if (!read || !messages || !grouping || settings.catchUpMs <= 0) return [];
	if (context.getMode() !== 'webhook') return [];
	const activatedAt = new TriggerState(context.getWorkflowStaticData('node')).activatedAt();
	if (activatedAt === undefined) return [];
	const now = delivery.clock.now();
	const bursts = missedBursts(
		read.timeline,
		messages.map((message) => message.id ?? ''),
		grouping,
		{
			maxAgeMs: settings.catchUpMs,
			since: activatedAt + ACTIVATION_SLACK_MS,
			now,
			phoneLagMs: phoneLag(envelope, delivery),
			complete: read.cursor === undefined || read.reads >= MAX_PAGES,
			answers: settings.turn.answers,
		},
	);
	return bursts.map((burst) => caughtUpItem(envelope, burst, read.timeline, settings, now));
}

/** Why an earlier answer runs as a caught-up item: offered again, its question did not take it. */
const ANSWER_NOT_TAKEN = 'answer not taken by its Send and Wait question';

/** The envelope fields of a run's item that a caught-up item of the same run shares. */
const envelopeOf = (json: IDataObject): EventEnvelope => ({
	id: String(json.id),
	type: String(json.type),
	created_at: String(json.created_at),
	api_version: String(json.api_version),
	account_id: String(json.account_id),
	data: {},
});

/**
 * The item of an answer written before the run's turn that its question did not take when the run
 * offered it again (answerPass.ts): it runs as the ordinary message it then is, an item after
 * `carrier` (the run's item whose offer held it) shaped as that one (grouped or not), with its
 * waiting question, pause and the history before the answer, marked `caught_up`.
 */
export function earlierAnswerItem(
	carrier: INodeExecutionData,
	earlier: EarlierAnswer,
): INodeExecutionData {
	const from = carrier.json;
	const history = Array.isArray(from.history)
		? (from.history as unknown as HistoryEntry[])
		: undefined;
	const at = history?.findIndex((entry) => entry.message_id === earlier.message.id) ?? -1;
	const json = turnItemJson(standIn(envelopeOf(from), earlier.message, earlier.at), {
		run: true,
		...(Array.isArray(from.message_ids) ? { messages: [earlier.message] } : {}),
		history: history && history.slice(0, Math.max(0, at)),
		historyError: typeof from.history_error === 'string' ? from.history_error : undefined,
		...(from.waiting_question === undefined
			? {}
			: { waitingQuestion: from.waiting_question as unknown as WaitingQuestion | null }),
	});
	if (from.takeover !== undefined) json.takeover = from.takeover;
	json.caught_up = {
		reason: ANSWER_NOT_TAKEN,
		age_seconds: earlier.age_seconds,
		previous_message_id: earlier.previous_message_id,
	};
	return { json };
}

/** Whether a run's item is a caught-up burst's. */
export const isCaughtUp = (item: INodeExecutionData | undefined): boolean =>
	typeof item?.json.caught_up === 'object' && item.json.caught_up !== null;
