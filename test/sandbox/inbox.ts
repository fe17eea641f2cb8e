import type { AccountState, Channel, ChatRecord, MessageRecord } from './model';
import type { SandboxState } from './state';

/** Filter numbers may carry `+`, spaces or dashes (7-30 chars); matching compares digits only. */
export function digits(phone: string): string {
	return phone.replace(/\D/g, '');
}

export function conversationIdFor(channel: Channel, phone: string): string {
	return channel === 'qr' ? `${digits(phone)}@s.whatsapp.net` : digits(phone);
}

export function isGroupConversation(conversationId: string): boolean {
	return conversationId.endsWith('@g.us');
}

/** The phone behind a one-to-one conversation id of either channel. */
export function phoneOfConversation(conversationId: string): string {
	return conversationId.replace(/@s\.whatsapp\.net$/, '');
}

/**
 * Number filters: in `include` mode only listed numbers pass, in `exclude` mode listed
 * numbers are blocked. They govern saving, webhook delivery and sending alike (spec: add_number_filter).
 */
export function passesFilters(account: AccountState, phone: string): boolean {
	const listed = account.filters.some((entry) => digits(entry.phone) === digits(phone));
	return account.filterMode === 'include' ? listed : !listed;
}

/** Groups are saved only when selected; one-to-one chats when the filters pass and the person is not skipped. */
export function isSaved(account: AccountState, conversationId: string): boolean {
	if (isGroupConversation(conversationId))
		return account.groups.get(conversationId)?.selected ?? false;
	const phone = phoneOfConversation(conversationId);
	return passesFilters(account, phone) && !account.skipped.has(digits(phone));
}

export function ensureChat(account: AccountState, chat: ChatRecord): ChatRecord {
	const existing = account.chats.get(chat.conversationId);
	if (existing) return existing;
	account.chats.set(chat.conversationId, chat);
	return chat;
}

export type NewMessage = Omit<
	MessageRecord,
	'id' | 'storedId' | 'accountId' | 'saved' | 'status' | 'deleted' | 'editedAt'
> &
	Partial<Pick<MessageRecord, 'status'>>;

/**
 * Records a message. Unsaved chats keep nothing readable (the message is flagged unsaved and
 * hidden from read tools); own sends are still tracked so get_send_status can answer.
 */
export function storeMessage(
	state: SandboxState,
	account: AccountState,
	input: NewMessage,
): MessageRecord {
	const saved = isSaved(account, input.conversationId);
	const record: MessageRecord = {
		...input,
		id:
			input.channel === 'qr'
				? `3EB0${state.ids.hex(10).toUpperCase()}`
				: `wamid.${state.ids.hex(16)}`,
		storedId: state.ids.prefixed('sm_', 10),
		accountId: account.id,
		status: input.status ?? (input.fromMe ? 'accepted' : 'delivered'),
		deleted: false,
		editedAt: null,
		saved,
	};
	if (saved) {
		ensureChat(account, {
			conversationId: input.conversationId,
			channel: input.channel,
			chatType: input.chatType,
			name:
				input.group?.name ??
				(input.fromMe
					? (account.contactNames.get(digits(input.to ?? '')) ?? input.to ?? '')
					: input.from.name),
		});
		if (!input.fromMe && input.chatType === 'individual')
			account.contactNames.set(digits(input.from.phone), input.from.name);
	}
	account.messages.push(record);
	return record;
}

export function findMessage(account: AccountState, id: string): MessageRecord | undefined {
	return account.messages.find((m) => m.id === id || m.storedId === id);
}

/** Messages the read tools may show: saved, not removed by delete_chat. */
export function visibleMessages(account: AccountState): MessageRecord[] {
	return account.messages.filter((m) => m.saved && account.chats.has(m.conversationId));
}
