/**
 * Event envelope and message payload as the spec's Events section describes them. Every field is
 * optional here except what consumers rely on, and unknown fields pass through untouched.
 * (The event type names live with the endpoint API: WEBHOOK_EVENT_TYPES in ../client.)
 */

import { isRecord } from '../guards';

export type Channel = 'qr' | 'business';

export interface EventEnvelope<Data = Record<string, unknown>> {
	/** `evt_` prefix, stable across retries: the dedupe and idempotency key. */
	id: string;
	type: string;
	created_at: string;
	api_version: string;
	account_id: string;
	data: Data;
}

export interface MessageAttachment {
	download_available?: boolean;
	[field: string]: unknown;
}

export interface EventMessage {
	id?: string;
	stored_message_id?: string;
	conversation_id?: string;
	channel?: Channel;
	chat_type?: string;
	group?: { id?: string; name?: string };
	from?: { phone?: string; name?: string };
	from_me?: boolean;
	type?: string;
	text?: string;
	text_truncated?: boolean;
	quoted_message_id?: string | null;
	has_attachment?: boolean;
	attachment?: MessageAttachment | null;
	timestamp?: string;
}

/**
 * Accepts a parsed body as an envelope when the fields every consumer relies on are present;
 * anything else is a malformed delivery (signed, yet unusable).
 */
export function parseEnvelope(body: unknown): EventEnvelope | undefined {
	if (!isRecord(body) || !isRecord(body.data)) return undefined;
	if (typeof body.id !== 'string' || body.id === '' || typeof body.type !== 'string') return undefined;
	return {
		...body,
		id: body.id,
		type: body.type,
		created_at: typeof body.created_at === 'string' ? body.created_at : '',
		api_version: typeof body.api_version === 'string' ? body.api_version : '',
		account_id: typeof body.account_id === 'string' ? body.account_id : '',
		data: body.data,
	};
}

/** The message of message.received / message.sent events, when there is one. */
export function eventMessage(envelope: EventEnvelope): EventMessage | undefined {
	const message = envelope.data.message;
	return isRecord(message) ? (message as EventMessage) : undefined;
}
