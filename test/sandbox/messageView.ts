import type { MessageRecord } from './model';

/** Spec: webhook payload cap 256 KB. */
export const PAYLOAD_CAP_BYTES = 256 * 1024;
/** Room left for the envelope (id, type, created_at, api_version, account_id) around `data`. */
const ENVELOPE_ALLOWANCE_BYTES = 1024;

export interface MessageObject {
	id: string;
	stored_message_id: string;
	conversation_id: string;
	channel: 'qr' | 'business';
	chat_type: string;
	group?: { id: string; name: string };
	from: { phone: string; name: string };
	from_me: boolean;
	type: string;
	text: string;
	text_truncated?: true;
	quoted_message_id: string | null;
	has_attachment: boolean;
	attachment: {
		file_name: string;
		mime_type: string;
		size: number;
		download_available: boolean;
	} | null;
	timestamp: string;
}

/** Exactly the fields of the spec's Message table; `group` only for group chats. */
export function messageObject(m: MessageRecord): MessageObject {
	return {
		id: m.id,
		stored_message_id: m.storedId,
		conversation_id: m.conversationId,
		channel: m.channel,
		chat_type: m.chatType,
		...(m.group ? { group: { ...m.group } } : {}),
		from: { ...m.from },
		from_me: m.fromMe,
		type: m.type,
		text: m.text,
		quoted_message_id: m.quotedMessageId,
		has_attachment: m.attachment !== null,
		attachment: m.attachment
			? {
					file_name: m.attachment.fileName,
					mime_type: m.attachment.mimeType,
					size: m.attachment.size,
					download_available: m.attachment.downloadAvailable,
				}
			: null,
		timestamp: new Date(m.timestamp).toISOString(),
	};
}

/** The event form: oversized text is cut so the whole envelope fits the cap, and flagged. */
export function eventMessage(m: MessageRecord): { message: MessageObject } {
	const message = messageObject(m);
	const size = Buffer.byteLength(JSON.stringify({ message }));
	if (size + ENVELOPE_ALLOWANCE_BYTES <= PAYLOAD_CAP_BYTES) return { message };
	const withoutText = Buffer.byteLength(
		JSON.stringify({ message: { ...message, text: '', text_truncated: true } }),
	);
	const budget = PAYLOAD_CAP_BYTES - ENVELOPE_ALLOWANCE_BYTES - withoutText;
	let text = message.text;
	// JSON escaping can grow a character to 6 bytes, so shrink until the serialized text fits.
	while (Buffer.byteLength(JSON.stringify(text)) - 2 > budget) {
		const ratio = budget / (Buffer.byteLength(JSON.stringify(text)) - 2);
		text = text.slice(0, Math.floor(text.length * ratio * 0.98));
	}
	return { message: { ...message, text, text_truncated: true } };
}
