import type { TimelineMessage } from '../../shared/conversation/timeline';
import type { EventMessage } from '../../shared/webhooks/events';
import { previousPersonMessage } from '../run/previousMessage';

/*
 * A question's answer written before the turn, while the question still waits: a run claimed it and
 * n8n stopped (or cancelled the run) before its offer ended, after it had answered the delivery, so
 * no retry comes. The turn's run offers it again only if a run claimed it as an answer and none
 * recorded the offer's end (answerReoffer.ts); else (the trigger was inactive then) it stays
 * unoffered. Not taken, it runs in that run as the ordinary message it then is (answerPass.ts).
 */

/**
 * An answer written this long before the turn (service times) had its run claim it long since (its
 * delivery answered within 10 s, the claim's waits 25.5 s): asking whether a run claimed it cannot
 * meet that run's own claim (answerReoffer.ts).
 */
const EARLIER_ANSWER_AGE_MS = 60_000;

/** An earlier answer as its offer carries it: what its item holds if it runs (run/caughtUp.ts). */
export interface EarlierAnswer {
	message: EventMessage;
	/** When it was written (service times, as the read orders it). */
	at: number;
	/** How long before the turn's last message it was written. */
	age_seconds: number;
	/** The person's message before it (null: none in the read). */
	previous_message_id: string | null;
}

/** The first message before the turn (and at least a minute before it) that `answers` its question. */
export function answerBeforeTurn(
	timeline: readonly TimelineMessage[],
	turn: ReadonlySet<string>,
	answers: (id: string) => boolean,
): EarlierAnswer | undefined {
	const turnAt = timeline.findIndex((entry) => turn.has(entry.id));
	if (turnAt < 0) return undefined;
	const settledBy = timeline[turnAt].at - EARLIER_ANSWER_AGE_MS;
	const entry = timeline
		.slice(0, turnAt)
		.find((candidate) => candidate.at <= settledBy && answers(candidate.id));
	if (!entry) return undefined;
	const turnLast = timeline.filter((candidate) => turn.has(candidate.id)).at(-1) ?? entry;
	return {
		message: entry.message,
		at: entry.at,
		age_seconds: Math.round((turnLast.at - entry.at) / 1000),
		previous_message_id: previousPersonMessage(timeline, entry.id),
	};
}
