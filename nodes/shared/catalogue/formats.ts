import { z } from 'zod/v4';

/*
 * Building blocks for tool inputs. Every bound carries a message that states the whole rule
 * ("must be 1-4096 characters"), so a failed check tells a person or an AI agent what to send
 * instead, and the sandbox reports the same words the node does.
 */

/** Idempotency keys: also checked on the `Idempotency-Key` header by the client and sandbox. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
const SEND_PHONE_PATTERN = /^[1-9]\d{6,14}$/;
const GROUP_JID_PATTERN = /^\d[\d-]*@g\.us$/;
/** The spec shows template names as lowercase letters, digits and underscores (create_campaign). */
const TEMPLATE_NAME_PATTERN = /^[a-z0-9_]{1,512}$/;

/** Conversation id shapes from the spec's identifier table. */
export const CONVERSATION_ID_PATTERNS = {
	/** One-to-one QR chat: `<digits>@s.whatsapp.net`. */
	qrDirect: /^\d+@s\.whatsapp\.net$/,
	/** QR group: `<digits>@g.us` (group jids may also carry hyphens). */
	qrGroup: GROUP_JID_PATTERN,
	/** Business chat: the recipient's phone number digits. */
	business: /^\d+$/,
} as const;

export type ConversationKind = keyof typeof CONVERSATION_ID_PATTERNS | 'unknown';

/** Which channel and chat type a conversation id belongs to, judged only by its shape. */
export function conversationKind(conversationId: string): ConversationKind {
	for (const kind of ['qrDirect', 'qrGroup', 'business'] as const) {
		if (CONVERSATION_ID_PATTERNS[kind].test(conversationId)) return kind;
	}
	return 'unknown';
}

/*
 * A schema-level message would also replace "is required" and "must be a string"; this one applies
 * only to values of the right type that break the format.
 */
function formatRule(message: string) {
	return (issue: { code?: string }) => (issue.code === 'invalid_format' ? message : undefined);
}

function range(min: number, max: number, unit: string): string {
	if (min === max) return `exactly ${min} ${unit}`;
	if (min === 0) return `at most ${max} ${unit}`;
	return `${min}-${max} ${unit}`;
}

/** A string of `min` to `max` characters. */
export function chars(min: number, max: number) {
	const message = `must be ${range(min, max, 'characters')}`;
	return z.string().min(min, message).max(max, message);
}

/** A whole number from `min` to `max` inclusive. */
export function integer(min: number, max: number) {
	const message = `must be an integer from ${min} to ${max}`;
	return z.int().min(min, message).max(max, message);
}

/** An array of `min` to `max` elements. */
export function list<Item extends z.ZodType>(item: Item, min: number, max: number) {
	const message = `must have ${range(min, max, 'items')}`;
	return z.array(item).min(min, message).max(max, message);
}

/** Phone number for send and group tools: digits only, international format. */
export const sendPhone = z
	.string()
	.regex(SEND_PHONE_PATTERN, 'must be 7-15 digits, first digit not 0')
	.describe(
		'Phone number: digits only, international format, no + (7-15 digits, no spaces or dashes)',
	)
	.meta({ examples: ['4915112345678'] });

/** Phone number for filter and check tools: the spec only bounds the length. */
export const filterPhone = chars(7, 30)
	.describe('Phone number, 7-30 characters')
	.meta({ examples: ['+49 151 12345678'] });

export const groupJid = z
	.string()
	.regex(GROUP_JID_PATTERN, 'must be digits and hyphens starting with a digit, followed by @g.us')
	.describe('The group: digits and hyphens starting with a digit, followed by @g.us')
	.meta({ title: 'Group ID', examples: ['120363025246125486@g.us'] });

/* z.guid accepts any 8-4-4-4-12 hex id; the spec says only "UUID", so no version is enforced. */
export const uuid = z
	.guid({ error: formatRule('must be a UUID such as 3f2b8c1e-0d4a-4e7b-9a51-6c2d9e8f1a00') })
	.meta({ examples: ['3f2b8c1e-0d4a-4e7b-9a51-6c2d9e8f1a00'] });

/* RFC 3339 as JSON Schema's `date-time`: a timezone (Z or an offset) is required. */
export const dateTime = z.iso
	.datetime({
		offset: true,
		error: formatRule('must be an ISO 8601 date-time with a timezone, e.g. 2026-10-01T09:30:00Z'),
	})
	.meta({ examples: ['2026-10-01T09:30:00Z'] });

export const idempotencyKey = z
	.string()
	.regex(
		IDEMPOTENCY_KEY_PATTERN,
		"must be 8-128 characters from letters, digits, '.', '_', ':' and '-'",
	)
	.describe(
		'Names this action for retries: the same key with the same input replays the first result ' +
			'instead of acting twice; a different action needs a different key. ' +
			'8-128 characters from letters, digits, . _ : -',
	)
	.meta({ examples: ['evt_2f9c1d7a8b:reply'] });

export const templateName = z
	.string()
	.regex(TEMPLATE_NAME_PATTERN, 'must be 1-512 lowercase letters, digits or underscores')
	.meta({ examples: ['order_update'] });

export const templateLanguage = chars(2, 12)
	.meta({ title: 'Template Language' })
	.describe('Language code of the template, as approved')
	.meta({ examples: ['en_US'] });

/** Template variable values in order ({{1}}, {{2}}, ...). */
export const templateParameters = list(chars(1, 1024), 0, 20)
	.meta({ title: 'Template Values' })
	.describe(
		'Values for the variables {{1}}, {{2}}, ... of the template body, in order; up to 20, each 1-1024 characters',
	);

/** Message ids and conversation ids are opaque: only their length is bounded. */
export const messageId = chars(1, 250).meta({ title: 'Message ID' });

export const conversationId = chars(1, 250)
	.meta({ title: 'Conversation ID', examples: ['4915112345678@s.whatsapp.net'] })
	.describe('The chat, exactly as a trigger event or another operation gave it');

/** Channel selector shared by send and check tools. */
export const channel = z
	.enum(['qr', 'business'])
	.meta({
		title: 'Channel',
		optionLabels: {
			qr: { name: 'QR (Personal Number)', description: 'The personal number linked by QR code' },
			business: { name: 'Business', description: 'The official Business API' },
		},
	})
	.describe('Which connected number to use. Templates always go through Business.');
