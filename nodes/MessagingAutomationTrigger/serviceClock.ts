/*
 * The service's time on this process's clock, per trigger scope, so that the host's clock never
 * matters. Each delivery bounds the offset (local minus service time) from above twice: by its
 * message's timestamp (exact to the delivery's own delay) and by its `webhook-timestamp` header
 * (the attempt's send time in whole seconds, exact to a second even for a delivery the service
 * retried long after the message). The smallest bound is kept, so service time is never
 * overestimated: a read never claims messages that may not be written yet. It outlives the
 * conversations that taught it, and a bound older than ten minutes is dropped, so a host clock
 * that was set forward meanwhile is learnt again.
 */

import { MAX_SEND_DELAY_MS } from './deliveryTiming';

const FORGET_AFTER_MS = 10 * 60_000;

interface Estimate {
	offset: number;
	learntAt: number;
}

const estimates = new Map<string, Estimate>();

export interface DeliveryTimes {
	/** Local time the delivery arrived. */
	arrivedAt: number;
	/** The message's own timestamp (service time), when the event carries a message. */
	writtenAt?: number;
	/** `webhook-timestamp` in ms (service time, whole seconds), when the delivery carried one. */
	sentAt?: number;
}

export class ServiceClock {
	constructor(private readonly scope: string) {}

	/** Takes what a delivery tells about the offset. */
	observe(times: DeliveryTimes): void {
		const bounds = [times.writtenAt, times.sentAt]
			.filter((at): at is number => at !== undefined)
			.map((at) => times.arrivedAt - at);
		if (bounds.length === 0) return;
		const offset = Math.min(...bounds);
		const known = estimates.get(this.scope);
		const stale = known === undefined || times.arrivedAt - known.learntAt > FORGET_AFTER_MS;
		if (stale || offset <= known.offset)
			estimates.set(this.scope, { offset, learntAt: times.arrivedAt });
	}

	/** Service time at local time `localTime` (a delivery is always observed first). */
	at(localTime: number): number {
		return localTime - (estimates.get(this.scope)?.offset ?? Number.POSITIVE_INFINITY);
	}

	now(): number {
		return this.at(Date.now());
	}

	/**
	 * Local time the service sent a delivery that arrived at `arrivedAt`: its `webhook-timestamp`
	 * on this clock, never after it arrived and at most MAX_SEND_DELAY_MS before.
	 */
	sentLocally(sentAt: number | undefined, arrivedAt: number): number {
		const delay = sentAt === undefined ? 0 : this.at(arrivedAt) - sentAt;
		return arrivedAt - Math.min(Math.max(delay, 0), MAX_SEND_DELAY_MS);
	}
}
