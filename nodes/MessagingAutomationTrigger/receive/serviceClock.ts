/*
 * The service's time on this process's clock, per trigger scope, so that the host's clock never
 * matters. Each delivery bounds the offset (local minus service time) from above twice: by its
 * message's timestamp (exact to the delivery's own delay) and by its `webhook-timestamp` header
 * (the attempt's send time in whole seconds, exact to a second even for a delivery the service
 * retried long after the message). The smallest bound is kept, so service time is never
 * overestimated: a read never claims messages that may not be written yet.
 *
 * It cannot be thrown. A message stamped after its own delivery was sent (a phone's clock set
 * ahead) contradicts the delivery and teaches nothing. Local times are the process's monotonic
 * clock (shared/monotonic.ts), so a host clock that steps (NTP, a person setting it) changes
 * nothing. A bound older than ten minutes is dropped, so a service clock that drifts is learnt
 * again.
 */

import {
	FORGET_OFFSET_AFTER_MS,
	MAX_SEND_DELAY_MS,
	SENT_AT_RESOLUTION_MS,
} from '../../shared/conversation/deliveryTiming';
import { monotonicNow } from '../../shared/monotonic';

interface Estimate {
	/** Monotonic minus service time. */
	offset: number;
	/** Monotonic time it was learnt. */
	learntAt: number;
}

const estimates = new Map<string, Estimate>();

export interface DeliveryTimes {
	/** Local (monotonic) time the delivery arrived. */
	arrivedAt: number;
	/** The message's own timestamp (service time), when the event carries a message. */
	writtenAt?: number;
	/** `webhook-timestamp` in ms (service time, whole seconds). */
	sentAt: number;
}

/**
 * The latest service time the delivery proves it was sent at or after: its `webhook-timestamp`
 * (whole seconds), or its message's own time when that is later and within the second (a fresh
 * delivery). A message stamped later than that contradicts the delivery and is not believed.
 */
function sentNoEarlierThan({ writtenAt, sentAt }: DeliveryTimes): number {
	return writtenAt !== undefined && writtenAt <= sentAt + SENT_AT_RESOLUTION_MS
		? Math.max(writtenAt, sentAt)
		: sentAt;
}

export class ServiceClock {
	constructor(private readonly scope: string) {}

	/** Takes what a delivery tells about the offset. */
	observe(times: DeliveryTimes): void {
		const arrived = times.arrivedAt;
		const offset = arrived - sentNoEarlierThan(times);
		const known = estimates.get(this.scope);
		const stale = known === undefined || arrived - known.learntAt > FORGET_OFFSET_AFTER_MS;
		if (stale || offset <= known.offset) estimates.set(this.scope, { offset, learntAt: arrived });
	}

	/** Service time at local (monotonic) time `localTime` (a delivery is always observed first). */
	at(localTime: number): number {
		return localTime - (estimates.get(this.scope)?.offset ?? Number.POSITIVE_INFINITY);
	}

	now(): number {
		return this.at(monotonicNow());
	}

	/**
	 * Local time the service sent a delivery (observed first): when it proves it was sent, on this
	 * clock, never after it arrived and at most MAX_SEND_DELAY_MS before.
	 */
	sentLocally(times: DeliveryTimes): number {
		const delay = this.at(times.arrivedAt) - sentNoEarlierThan(times);
		return times.arrivedAt - Math.min(Math.max(delay, 0), MAX_SEND_DELAY_MS);
	}
}
