import { isRetried } from '../shared/conversation/deliveryTiming';
import { eventMessage, type EventEnvelope } from '../shared/webhooks/events';
import type { DeliveryReply } from './deliveryReply';
import { ServiceClock } from './serviceClock';

/**
 * The delivery being handled: where its trigger's held deliveries are kept, its times, and its one
 * answer (deliveryReply.ts), which a held delivery may need before its turn is known (a copy of a
 * held message, a delivery that waited 2.5 minutes, or one handed back with its burst still open
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
	/** Sent long after its message was written: a retry (deliveryTiming.ts). */
	retried: boolean;
}

/**
 * What the delivery's times say: when the service sent it on this process's clock (taught by it
 * too), and whether it is a retry. A retried delivery's run is always left for n8n to answer once
 * recorded: a second stop is likeliest while retries are settled, and an answer that comes too
 * late costs only a retry whose copy passes nothing on.
 */
export function deliveryContext(
	scope: string,
	envelope: EventEnvelope,
	arrivedAt: number,
	sentAt: number,
	reply: DeliveryReply,
): DeliveryContext {
	const written = Date.parse(eventMessage(envelope)?.timestamp ?? '');
	const writtenAt = Number.isNaN(written) ? undefined : written;
	const clock = new ServiceClock(scope);
	const times = { arrivedAt, writtenAt, sentAt };
	clock.observe(times);
	return {
		reply,
		scope,
		clock,
		sentAt,
		sentLocallyAt: clock.sentLocally(times),
		retried: isRetried(sentAt, writtenAt),
	};
}
