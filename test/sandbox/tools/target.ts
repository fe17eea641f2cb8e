import { CONVERSATION_ID_PATTERNS } from '../../../nodes/shared/catalogue/formats';
import { conversationIdFor, digits, isGroupConversation, phoneOfConversation } from '../inbox';
import type { AccountState, Channel, MessageRecord } from '../model';
import { invalidInput, notConnected, str, toolError } from './context';

const DAY_MS = 24 * 60 * 60_000;

/**
 * The channel a send or check acts on: the given one, else the only connected one.
 * With both connected the caller must choose (spec: check_recipient_send_options).
 */
export function chooseChannel(
	account: AccountState,
	input: Record<string, unknown>,
): Channel | null {
	const given = str(input, 'channel') as Channel | undefined;
	if (given) return given;
	const connected = (['qr', 'business'] as const).filter((c) => account.channels[c].connected);
	if (connected.length === 2) return failBoth();
	return connected[0] ?? null;
}

function failBoth(): never {
	throw invalidInput(
		'channel',
		"is required when both channels are connected: give 'qr' or 'business'",
	);
}

export function resolveSendChannel(account: AccountState, input: Record<string, unknown>): Channel {
	const channel = chooseChannel(account, input);
	if (!channel) throw notConnected('qr');
	if (!account.channels[channel].connected) throw notConnected(channel);
	return channel;
}

export interface Target {
	conversationId: string;
	chatType: 'individual' | 'group';
	/** The person for one-to-one chats; null for groups. */
	phone: string | null;
}

/** phoneNumber or conversationId, checked against the id shapes of the chosen channel. */
export function resolveTarget(
	account: AccountState,
	channel: Channel,
	input: Record<string, unknown>,
): Target {
	const phone = str(input, 'phoneNumber');
	if (phone !== undefined) {
		return {
			conversationId: conversationIdFor(channel, phone),
			chatType: 'individual',
			phone: digits(phone),
		};
	}
	const conversationId = str(input, 'conversationId');
	if (conversationId === undefined)
		throw invalidInput('phoneNumber', 'or conversationId is required');
	const shapes =
		channel === 'qr'
			? [CONVERSATION_ID_PATTERNS.qrDirect, CONVERSATION_ID_PATTERNS.qrGroup]
			: [CONVERSATION_ID_PATTERNS.business];
	if (!shapes.some((shape) => shape.test(conversationId))) {
		throw invalidInput(
			'conversationId',
			`is not a ${channel} conversation id (see the spec's identifier formats)`,
		);
	}
	if (isGroupConversation(conversationId)) {
		if (!account.groups.has(conversationId))
			throw toolError(`The linked number is not in the group ${conversationId}.`);
		return { conversationId, chatType: 'group', phone: null };
	}
	return { conversationId, chatType: 'individual', phone: phoneOfConversation(conversationId) };
}

/** When the customer last wrote in a Business chat: what the 24-hour window counts from. */
export function lastCustomerMessageAt(
	account: AccountState,
	conversationId: string,
): number | null {
	let last: MessageRecord | undefined;
	for (const m of account.messages) {
		if (m.channel === 'business' && m.conversationId === conversationId && !m.fromMe) {
			if (!last || m.timestamp > last.timestamp) last = m;
		}
	}
	return last ? last.timestamp : null;
}

/** The Business customer service window: open for 24 hours after the customer's last message. */
export function windowClosesAt(account: AccountState, conversationId: string): number | null {
	const last = lastCustomerMessageAt(account, conversationId);
	return last === null ? null : last + DAY_MS;
}
