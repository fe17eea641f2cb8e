import type { IDataObject } from 'n8n-workflow';

import { eventMessage, type EventEnvelope } from '../shared/webhooks/events';

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
	return {
		...(envelope as unknown as IDataObject),
		event_id: envelope.id,
		event_type: envelope.type,
		conversation_id: text(message?.conversation_id) ?? text(data.conversation_id),
		channel: text(message?.channel) ?? text(data.channel),
		text: text(message?.text),
		sender: sender ? { phone: text(sender.phone), name: text(sender.name) } : null,
		message_id: text(message?.id) ?? text(data.message_id),
	};
}
