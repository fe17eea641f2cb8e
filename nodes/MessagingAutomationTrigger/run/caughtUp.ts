import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import {
	ACTIVATION_SLACK_MS,
	missedBursts,
	type MissedBurst,
} from '../../shared/conversation/catchUp';
import { MAX_PAGES } from '../../shared/conversation/reader';
import type { TimelineMessage } from '../../shared/conversation/timeline';
import { eventMessage, type EventEnvelope } from '../../shared/webhooks/events';
import type { DeliveryContext } from '../receive/deliveryContext';
import { burstPauseAt, readFields, type Turn } from '../hold/turn';
import type { TriggerSettings } from '../settings';
import { TriggerState } from '../state';
import { turnItemJson } from './output';
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

/**
 * The person's newest message written before `firstId` (null: none in the read). n8n's record of
 * runs still holding it proves the record reaches back far enough to say that what follows never
 * ran (runClaim.ts).
 */
function previousPersonMessage(
	timeline: readonly TimelineMessage[],
	firstId: string,
): string | null {
	const index = timeline.findIndex((entry) => entry.id === firstId);
	const before = timeline.slice(0, Math.max(0, index)).filter((entry) => !entry.fromMe);
	return before.length > 0 ? before[before.length - 1].id : null;
}

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
): CaughtUpItem {
	const ids = burst.messages.map((entry) => entry.id);
	const last = burst.messages[burst.messages.length - 1];
	const stand: EventEnvelope = {
		...envelope,
		id: asKey(`evt_caught_up:${last.id}`),
		created_at: new Date(last.at).toISOString(),
		data: { message: last.message },
	};
	const fields = readFields(timeline, ids, burstPauseAt(timeline, last.id), settings.turn);
	const json: IDataObject = turnItemJson(stand, {
		run: true,
		messages: burst.messages.map((entry) => entry.message),
		closedBy: burst.closedBy,
		...fields,
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

/** Whether a run's item is a caught-up burst's. */
export const isCaughtUp = (item: INodeExecutionData | undefined): boolean =>
	typeof item?.json.caught_up === 'object' && item.json.caught_up !== null;
