import type { IDataObject } from 'n8n-workflow';

import { historyText } from '../../shared/conversation/history';
import { eventMessage, type EventEnvelope, type EventMessage } from '../../shared/webhooks/events';
import { statusReason } from './statusReason';
import type { Turn } from '../hold/turn';

/** The field of a run's item that carries its answer offers to its first step (answerPass.ts), never passed on. */
export const OFFERS_FIELD = 'answer_offers';

function text(value: unknown): string | null {
	return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The output item's JSON: the envelope as delivered plus flat fields a reply needs, so the action
 * node can use `{{$json.conversation_id}}`, `{{$json.channel}}` and `{{$json.event_id}}` (its
 * idempotency key source) without knowing each event type's layout. Every convenience field is
 * always present, null when the event type has no such value, so expressions never hit undefined.
 */
export function eventItemJson(envelope: EventEnvelope): IDataObject {
	const message = eventMessage(envelope);
	const data = envelope.data;
	const sender = message?.from;
	const json: IDataObject = {
		...(envelope as unknown as IDataObject),
		event_id: envelope.id,
		event_type: envelope.type,
		conversation_id: text(message?.conversation_id) ?? text(data.conversation_id),
		channel: text(message?.channel) ?? text(data.channel),
		text: text(message?.text),
		sender: sender ? { phone: text(sender.phone), name: text(sender.name) } : null,
		message_id: text(message?.id) ?? text(data.message_id),
	};
	// Status events also say why a message failed (null for any other status).
	if (envelope.type === 'message.status') json.status_reason = statusReason(data as IDataObject);
	return json;
}

/**
 * A grouped turn: `text` joins the messages' texts in the order they were written, `message_id`
 * is the last one's, and `messages` holds each message as delivered. `event_id` stays the event
 * that closed the turn, so a reply's idempotency key is the same whichever copy ran.
 */
function turnFields(
	messages: readonly EventMessage[],
	turn: Pick<Extract<Turn, { run: true }>, 'closedBy' | 'groupingError'> & {
		/** Messages of the burst that answered a question (answerPass.ts). */
		answeredIds?: string[];
	},
): IDataObject {
	const last = messages[messages.length - 1];
	return {
		text: text(
			messages
				.map((message) => message.text ?? '')
				.filter((part) => part !== '')
				.join('\n'),
		),
		message_id: text(last?.id),
		messages: messages as IDataObject[],
		message_ids: messages.map((message) => message.id ?? null),
		burst: {
			message_count: messages.length,
			first_at: messages[0]?.timestamp ?? null,
			last_at: last?.timestamp ?? null,
			closed_by: turn.closedBy ?? null,
			...(turn.groupingError ? { error: turn.groupingError } : {}),
			...(turn.answeredIds ? { answered_message_ids: turn.answeredIds } : {}),
		},
	};
}

/** The item of a run: the event's fields, then the turn's messages and history when asked for. */
export function turnItemJson(
	envelope: EventEnvelope,
	turn: Extract<Turn, { run: true }>,
): IDataObject {
	const json = eventItemJson(envelope);
	if (turn.messages) Object.assign(json, turnFields(turn.messages, turn));
	if (turn.history) {
		json.history = turn.history as unknown as IDataObject[];
		json.history_text = historyText(turn.history);
		if (turn.historyError) json.history_error = turn.historyError;
	}
	if (turn.waitingQuestion !== undefined)
		json.waiting_question = turn.waitingQuestion as unknown as IDataObject | null;
	if (turn.answerOffers) json[OFFERS_FIELD] = turn.answerOffers as unknown as IDataObject[];
	return json;
}

const listed = (value: unknown) => (Array.isArray(value) ? (value as unknown[]) : []);

/** A grouped run's item JSON with only the messages `keep`, its burst fields made anew. */
function keptTurnJson(
	json: IDataObject,
	keep: ReadonlySet<string>,
	answeredIds?: string[],
): IDataObject {
	const messages = (listed(json.messages) as EventMessage[]).filter((message) =>
		keep.has(message.id ?? ''),
	);
	const burst = (json.burst ?? {}) as IDataObject;
	const kept = turnFields(messages, {
		closedBy: (burst.closed_by ?? undefined) as Extract<Turn, { run: true }>['closedBy'],
		groupingError: typeof burst.error === 'string' ? burst.error : undefined,
		answeredIds,
	});
	return { ...json, ...kept };
}

/**
 * A grouped run's item JSON narrowed to the messages `keep` (narrowedRun.ts: the others ran
 * before, in an earlier run of the same burst read before a late-saved message of it, or in
 * another run of it while this one made its answer offers); they are named in `burst.ran_before`,
 * after those named there already, and the answers named stay named.
 */
export function narrowedTurnJson(json: IDataObject, keep: ReadonlySet<string>): IDataObject {
	const burst = (json.burst ?? {}) as IDataObject;
	const answered = burst.answered_message_ids;
	const narrowed = keptTurnJson(
		json,
		keep,
		answered === undefined ? undefined : (listed(answered) as string[]),
	);
	const ranBefore = [
		...listed(burst.ran_before),
		...listed(json.message_ids).filter((id) => typeof id !== 'string' || !keep.has(id)),
	];
	return { ...narrowed, burst: { ...(narrowed.burst as IDataObject), ran_before: ranBefore } };
}

/**
 * A grouped run's item JSON without the messages that answered Send and Wait questions
 * (answerPass.ts), named in `burst.answered_message_ids`; what ran before stays named.
 */
export function answeredTurnJson(json: IDataObject, answered: ReadonlySet<string>): IDataObject {
	const keep = new Set(
		listed(json.message_ids).filter(
			(id): id is string => typeof id === 'string' && !answered.has(id),
		),
	);
	const ranBefore = ((json.burst ?? {}) as IDataObject).ran_before;
	const kept = keptTurnJson(json, keep, [...answered]);
	return ranBefore === undefined
		? kept
		: { ...kept, burst: { ...(kept.burst as IDataObject), ran_before: ranBefore } };
}
