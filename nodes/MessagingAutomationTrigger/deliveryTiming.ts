/*
 * The delivery path's timing figures, derived from the service's ten-second receiver time-out
 * (spec: Delivery, Limits) and its retry schedule. Each figure says what it is measured from.
 */

/** The service waits this long for an answer; one that comes later counts as a failure, retried. */
export const RECEIVER_TIMEOUT_MS = 10_000;

/**
 * A grouped delivery is answered at the latest this long after the service sent it (its signed
 * `webhook-timestamp`, whole seconds, so never later than meant): room for a slow answer.
 */
export const HOLD_MS = RECEIVER_TIMEOUT_MS - 1500;

/**
 * How long n8n may take before the handler starts that still counts: a longer estimate means the
 * clocks disagree, and the delivery keeps this much of its hold, room for one read.
 */
const LEAST_HOLD_MS = 1500;
export const MAX_SEND_DELAY_MS = HOLD_MS - LEAST_HOLD_MS;

/**
 * A loaded n8n was measured taking seconds to record a run: a run's delivery is left for n8n to
 * answer once recorded only while this much of the service's time-out is left.
 */
const N8N_RECORDS_WITHIN_MS = 6000;
export const LEAVE_TO_N8N_WITHIN_MS = RECEIVER_TIMEOUT_MS - N8N_RECORDS_WITHIN_MS;

/**
 * A delivery the service sent this long after its message was written is a retry: the first
 * retry comes 30 s (-20 %) after a failure, so 24 s or more after the message, and a fresh
 * delivery comes as soon as the service queued the event (seconds, when its queue lags).
 */
export const RETRIED_AFTER_MS = 15_000;

/** Whether a delivery sent at `sentAt` for a message written at `writtenAt` (service times) is a retry. */
export function isRetried(sentAt: number, writtenAt: number | undefined): boolean {
	return writtenAt !== undefined && sentAt - writtenAt > RETRIED_AFTER_MS;
}
