/*
 * Every timing figure of the trigger's delivery path (receive → hold → settle → run), derived
 * from the service's ten-second receiver time-out and its retry schedule (spec: Delivery,
 * Limits). Each figure says what it is measured from. docs/conversations.md quotes them, and a
 * test holds the two together.
 */

/** The service waits this long for an answer; one that comes later counts as a failure, retried. */
export const RECEIVER_TIMEOUT_MS = 10_000;
/** The service's first two retries, 30 s and 2 min after a failure (each ±20 %). */
const FIRST_RETRY_MS = 30_000;
const SECOND_RETRY_MS = 120_000;

/**
 * The service sends an event again this long after an attempt at the earliest (its first retry,
 * less 20 % jitter): an attempt sent sooner after another is a copy of it, not a retry.
 */
export const EARLIEST_RETRY_MS = (FIRST_RETRY_MS * 4) / 5;

/**
 * A grouped delivery is answered at the latest this long after the service sent it (its signed
 * `webhook-timestamp`, whole seconds, or its message's own time when later within that second:
 * never later than meant): room for a slow answer.
 */
export const HOLD_MS = RECEIVER_TIMEOUT_MS - 1500;

/**
 * How long n8n may take before the handler starts that still counts: a longer estimate means the
 * clocks disagree, and the delivery keeps this much of its hold, room for one read.
 */
const LEAST_HOLD_MS = 1500;
export const MAX_SEND_DELAY_MS = HOLD_MS - LEAST_HOLD_MS;

/**
 * A delivery the service sent this long after it queued the event (`created_at`, else the message's
 * own time) is a retry: the first retry comes 30 s (-20 %) after a failure, so 24 s or more after
 * the event was queued, and a fresh delivery comes as soon as the service's queue reaches it
 * (seconds, when its queue lags). Both times are the service's, so no clock is compared with
 * another; a message the service saved late (a phone that was offline) is queued late too, so its
 * first delivery is no retry however old the message is.
 */
export const RETRIED_AFTER_MS = 15_000;

/** Whether a delivery sent at `sentAt` for an event queued at `queuedAt` (service times) is a retry. */
export function isRetried(sentAt: number, queuedAt: number | undefined): boolean {
	return queuedAt !== undefined && sentAt - queuedAt > RETRIED_AFTER_MS;
}

/** Messages written up to this long before a read starts may not be saved yet: a read vouches for no later time. */
export const SAVE_SLACK_MS = 250;

/** A read that confirms carried messages starts this long before the first of their deadlines. */
export const READ_LEAD_MS = 800;

/** A due read or a sweep waits this much past its time: timers may fire a little early. */
export const TIMER_SLACK_MS = 50;

/**
 * A delivery answered at its deadline with its burst still open (a quiet window longer than the
 * hold) gives its reads this long past the burst's longest wait; unsettled then, it runs on its own.
 */
export const OPEN_READ_MS = 15_000;

/**
 * A delivery of an event the service sent this long after an attempt of it that failed is its
 * third attempt or later (the first two retries come 30 s and 2 min after a failure, less 20 %
 * jitter): still unsettled at its deadline, it runs on its own rather than going back once more,
 * since a conversation unreadable for that long should not hold a person's message for hours. It
 * counts from the first attempt this node handed back (handBacks.ts), never from the event's queue
 * time: a first attempt the service sends minutes late (a backlog) always goes back, as does the
 * first retry, however old its message.
 */
export const GIVE_UP_AFTER_MS = ((FIRST_RETRY_MS + SECOND_RETRY_MS) * 4) / 5;

/**
 * Whether a delivery sent at `sentAt` may give up waiting for a read, its event's first delivery
 * this node handed back having been sent at `handedBackSentAt` (service times).
 */
export function givesUp(sentAt: number, handedBackSentAt: number | undefined): boolean {
	return handedBackSentAt !== undefined && sentAt - handedBackSentAt >= GIVE_UP_AFTER_MS;
}

/**
 * Pass Answers to Send and Wait checks a person's message before its turn: its read waits out a
 * busy service this long, and its offer to the question's link this long (n8n answers at once, the
 * Send and Wait node after two look-ups), so a message that was no answer keeps most of its hold.
 */
export const ANSWER_READ_PATIENCE_MS = 2000;
export const ANSWER_OFFER_TIMEOUT_MS = 5000;
/**
 * A delivery's asks of its questions end this long after the service sent it at the latest, so
 * that n8n records the run and answers inside the receiver time-out: an ask still unanswered then
 * (n8n's own URL dropping requests) hands the delivery back in time, where one waited out in full
 * after the hold answered every attempt and copy late, a failure each (S11b-1).
 */
export const ASKED_BY_MS = RECEIVER_TIMEOUT_MS - 1000;

/**
 * The Send and Wait node decides on an offer (its question's look-up and its read) within this
 * long, or resumes nothing and says so (503): the rest of the offer's time-out is n8n's, loading
 * the execution before and answering after. A resume the trigger no longer waits for would leave
 * the answer to run as a message on the retry.
 */
export const ANSWER_DECISION_MS = ANSWER_OFFER_TIMEOUT_MS - 1500;

/**
 * The run's first step makes an offer that reached no verdict again after these pauses, counted
 * from one try's start to the next on the monotonic clock (so the tries start 0, 3, 33 and 153 s
 * after the first, whatever each took), yet never sooner than the first pause after a try ended:
 * once soon (a busy moment), then on the service's own retry schedule, so its last try comes 2.5 min
 * after the first, past GIVE_UP_AFTER_MS, as the service's third attempt of a delivery the trigger
 * handed back does: both sides run a possible answer as a message at the same point.
 */
export const OFFER_RETRY_PAUSES_MS = [3000, FIRST_RETRY_MS, SECOND_RETRY_MS];

/**
 * Without grouping the run waits for the read: a busy service is waited out this long (about the
 * client's usual three attempts) before the run starts without history, its pause unchecked.
 */
export const UNGROUPED_PATIENCE_MS = 3000;

/**
 * A conversation's last read is kept this long: the service's retries of a burst after a restart
 * come scattered over about ±20 % of its first retry, and the read the first of them made settles
 * the others.
 */
export const KEEP_READ_MS = 60_000;

/** The service's time is learnt again after this long without a better bound (its clock may drift). */
export const FORGET_OFFSET_AFTER_MS = 10 * 60_000;

/** `webhook-timestamp` counts whole seconds: a message may be written up to this long after it. */
export const SENT_AT_RESOLUTION_MS = 1000;
