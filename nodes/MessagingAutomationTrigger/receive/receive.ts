import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { EventEnvelope } from '../../shared/webhooks/events';
import { deliveryContext, type DeliveryContext } from './deliveryContext';
import { DeliveryReply, type RawResponse } from './deliveryReply';
import { forgetEvent, isDuplicateEvent, settleEvent } from './dedupe';
import { filterEvent } from './eventFilter';
import { firstHandBackOf, noteHandBack } from './handBacks';
import { handOver } from '../run/handOver';
import { monotonicNow } from '../../shared/monotonic';
import { deliveryScope } from './scope';
import { readSettings, type TriggerSettings } from '../settings';
import { TriggerState } from '../state';
import { readTurn, type Turn } from '../hold/turn';
import { parseDelivery, verifyDelivery } from './verifyDelivery';

/*
 * One delivery, one way through: verify → parse → filter → dedupe → turn → hand over. Each step
 * either passes the delivery on or answers it through its one reply (deliveryReply.ts), and the
 * handler returns what that reply's final state says to n8n.
 */

export async function receiveDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const arrivedAt = monotonicNow();
	const reply = new DeliveryReply(context.getResponseObject() as unknown as RawResponse);
	const settings = readSettings(context);
	const signed = await verifyDelivery(context, settings, reply);
	if (!signed) return reply.result();
	const envelope = parseDelivery(signed.body, reply);
	if (!envelope) return reply.result();
	if (!passesFilters(envelope, settings, reply)) return reply.result();
	const scope = deliveryScope(context);
	if (isRepeat(context, scope, envelope, signed.sentAt, settings, reply)) return reply.result();
	const delivery = deliveryContext(
		scope,
		envelope,
		arrivedAt,
		signed.sentAt,
		reply,
		firstHandBack(context, scope, envelope.id, signed.sentAt, reply),
	);
	const turn = await answeredTurn(context, envelope, settings, delivery);
	if (turn.run) return reply.result(await handOver(context, envelope, settings, delivery, turn));
	if (settings.deduplicate && reply.state === 'answered')
		settleEvent(scope, new TriggerState(context.getWorkflowStaticData('node')), envelope.id);
	return reply.result();
}

/** An event the trigger's filters leave out is answered 200, saying why, and starts nothing. */
function passesFilters(
	envelope: EventEnvelope,
	settings: TriggerSettings,
	reply: DeliveryReply,
): boolean {
	const verdict = filterEvent(envelope, settings.filters);
	if (!verdict.pass) reply.received({ received: true, ignored: verdict.reason });
	return verdict.pass;
}

/**
 * An event seen already (dedupe.ts) is answered 200 and starts nothing. A new one is recorded as
 * handled by this attempt (settled once answered here without a run), and forgotten again if its
 * delivery is handed back: the service's copy must not count as seen.
 */
function isRepeat(
	context: IWebhookFunctions,
	scope: string,
	envelope: EventEnvelope,
	sentAt: number,
	settings: TriggerSettings,
	reply: DeliveryReply,
): boolean {
	const state = new TriggerState(context.getWorkflowStaticData('node'));
	if (!settings.deduplicate) return false;
	if (isDuplicateEvent(scope, state, envelope.id, sentAt, settings.dedupeWindow, Date.now())) {
		reply.received({ received: true, duplicate: true });
		return true;
	}
	reply.onHandBack(() =>
		forgetEvent(scope, new TriggerState(context.getWorkflowStaticData('node')), envelope.id),
	);
	return false;
}

/**
 * When the first delivery of the event this node handed back was sent; this one's hand-back, if it
 * comes, is noted too (handBacks.ts).
 */
function firstHandBack(
	context: IWebhookFunctions,
	scope: string,
	eventId: string,
	sentAt: number,
	reply: DeliveryReply,
): number | undefined {
	const state = () => new TriggerState(context.getWorkflowStaticData('node'));
	reply.onHandBack(() => noteHandBack(scope, state(), eventId, sentAt, Date.now()));
	return firstHandBackOf(scope, state(), eventId, Date.now());
}

/**
 * The delivery's turn (turn.ts). A turn that starts nothing is answered here: 200, or 503 when it
 * hands the delivery back to the service. A run's delivery is left unanswered unless it went back with its burst still open at
 * the deadline.
 */
async function answeredTurn(
	context: IWebhookFunctions,
	envelope: EventEnvelope,
	settings: TriggerSettings,
	delivery: DeliveryContext,
): Promise<Turn> {
	const turn = await readTurn(context, envelope, settings.turn, delivery);
	if (!turn.run && turn.handBack) delivery.reply.handBack();
	else if (!turn.run) delivery.reply.received();
	return turn;
}
