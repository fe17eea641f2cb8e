import { SandboxApiError } from '../sandboxError';
import { LIMITS, type EventType } from './types';

export interface EventFacts {
	id: string;
	type: EventType;
	createdAt: number;
	accountId: string;
	data: Record<string, unknown>;
}

/**
 * Serializes the spec's envelope in its documented field order. When the body would pass the
 * 256 KB cap, the message text is cut (the only field the spec allows to shrink) and
 * `text_truncated: true` is added to the message.
 */
export function serializeEnvelope(event: EventFacts, apiVersion: string): string {
	const serialize = (data: Record<string, unknown>) =>
		JSON.stringify({
			id: event.id,
			type: event.type,
			created_at: new Date(event.createdAt).toISOString(),
			api_version: apiVersion,
			account_id: event.accountId,
			data,
		});
	const full = serialize(event.data);
	if (fits(full)) return full;

	const message = event.data.message as Record<string, unknown> | undefined;
	const text = message?.text;
	if (typeof text !== 'string') throw tooLarge();
	const withText = (length: number) =>
		serialize({
			...event.data,
			message: { ...message, text: cutText(text, length), text_truncated: true },
		});
	if (!fits(withText(0))) throw tooLarge();

	// Escaping makes byte size non-linear in text length, so search for the longest prefix that fits.
	let low = 0;
	let high = text.length;
	while (low < high) {
		const middle = Math.ceil((low + high) / 2);
		if (fits(withText(middle))) low = middle;
		else high = middle - 1;
	}
	return withText(low);
}

function fits(body: string): boolean {
	return Buffer.byteLength(body, 'utf8') <= LIMITS.payloadBytes;
}

/** Never splits a surrogate pair, which would serialize as an invalid lone escape. */
function cutText(text: string, length: number): string {
	const code = text.charCodeAt(length - 1);
	const endsInHighSurrogate = length > 0 && code >= 0xd800 && code <= 0xdbff;
	return text.slice(0, endsInHighSurrogate ? length - 1 : length);
}

function tooLarge(): SandboxApiError {
	return new SandboxApiError(
		413,
		'invalid_input',
		`event payload exceeds ${LIMITS.payloadBytes} bytes even without message text`,
	);
}
