import { givesUp, isRetried } from '../../shared/conversation/deliveryTiming';
import { eventMessage, type EventEnvelope } from '../../shared/webhooks/events';
import type { DeliveryReply } from './deliveryReply';
import { ServiceClock } from './serviceClock';

/**
 * The delivery being handled: where its trigger's held deliveries are kept, its times, and its one
 * answer (deliveryReply.ts), which a held delivery may need before its turn is known (a copy of a
 * held message, the service's third attempt still unsettled, or one handed back with its burst still open
 * at the deadline). Every other answer is receive.ts's, once the turn is known.
 */
export interface DeliveryContext {
	reply: DeliveryReply;
	/** One trigger node at one webhook URL. */
	scope: string;
	/** The service's time at its scope, taught by this delivery too. */
	clock: ServiceClock;
	/** The delivery's `webhook-timestamp` in ms (the service's clock). */
	sentAt: number;
	/** Local (monotonic) time the service sent it: what its deadline counts from. */
	sentLocallyAt: number;
	/** Service time the service queued the event (`created_at`, else its message's time), when known. */
	queuedAt?: number;
	/** Sent long after its event was queued: a retry (deliveryTiming.ts). */
	retried: boolean;
	/**
	 * The service's third attempt or later: sent long enough after the first delivery of its event
	 * this node handed back for the service's first two retries (handBacks.ts). Unsettled at its
	 * deadline, it runs rather than going back.
	 */
	givesUp: boolean;
}

/**
 * What the delivery's times say: when the service sent it on this process's clock (taught by it
 * too), when it queued the event, and whether this attempt is a retry, or its third or later. A retried delivery's run is always left for n8n to answer once
 * recorded: a second stop is likeliest while retries are settled, and an answer that comes too
 * late costs only a retry whose copy passes nothing on.
 */
export function deliveryContext(
	scope: string,
	envelope: EventEnvelope,
	arrivedAt: number,
	sentAt: number,
	reply: DeliveryReply,
	/** Send time (service) of the first delivery of the event this node handed back, if one was. */
	firstHandBack: number | undefined,
): DeliveryContext {
	const serviceTime = (value: string | undefined) => {
		const at = Date.parse(value ?? '');
		return Number.isNaN(at) ? undefined : at;
	};
	const writtenAt = serviceTime(eventMessage(envelope)?.timestamp);
	const queuedAt = serviceTime(envelope.created_at) ?? writtenAt;
	const clock = new ServiceClock(scope);
	const times = { arrivedAt, writtenAt, sentAt };
	clock.observe(times);
	return {
		reply,
		scope,
		clock,
		sentAt,
		sentLocallyAt: clock.sentLocally(times),
		queuedAt,
		retried: isRetried(sentAt, queuedAt),
		givesUp: givesUp(sentAt, firstHandBack),
	};
}
