import {
	digits,
	isGroupConversation,
	passesFilters,
	phoneOfConversation,
	visibleMessages,
} from '../inbox';
import { LIMITS } from '../limits';
import { type ToolHandler, invalidInput, str, toolError } from './context';
import { chooseChannel, lastCustomerMessageAt, resolveTarget, windowClosesAt } from './target';

const NOT_PROVEN =
	'This check does not prove that the number is registered or that the person opted in.';

const checkRecipientSendOptions: ToolHandler = (ctx) => {
	const { account } = ctx;
	const channel = chooseChannel(account, ctx.input);
	if (
		str(ctx.input, 'phoneNumber') === undefined &&
		str(ctx.input, 'conversationId') === undefined
	) {
		throw invalidInput('phoneNumber', 'or conversationId is required');
	}
	if (!channel) return { channel: null, connection_ready: false, notes: [NOT_PROVEN] };
	const target = resolveTarget(account, channel, ctx.input);
	const history = visibleMessages(account).some((m) => m.conversationId === target.conversationId);
	const filtersPass = target.phone === null || passesFilters(account, target.phone);
	const report: Record<string, unknown> = {
		channel,
		conversation_id: target.conversationId,
		connection_ready: account.channels[channel].connected,
		passes_filters: filtersPass,
		history_exists: history,
	};
	if (channel === 'business') {
		const closes = windowClosesAt(account, target.conversationId);
		const open = closes !== null && closes > ctx.state.clock.now();
		const last = lastCustomerMessageAt(account, target.conversationId);
		Object.assign(report, {
			customer_service_window_open: open,
			last_customer_message_at: last === null ? null : ctx.state.iso(last),
			window_expires_at: open && closes !== null ? ctx.state.iso(closes) : null,
			free_form_allowed: open && filtersPass,
			needs_approved_template: !open,
		});
	} else {
		Object.assign(report, {
			sends_today: ctx.limits.qrSendsToday(account.channels.qr.phone),
			daily_send_limit: LIMITS.qrSendsPerDay,
			per_minute_send_limit: LIMITS.qrSendsPerMinute,
		});
	}
	return { ...report, notes: [NOT_PROVEN] };
};

const deleteChat: ToolHandler = (ctx) => {
	const { account } = ctx;
	const conversationId = str(ctx.input, 'conversationId') ?? '';
	const chat = account.chats.get(conversationId);
	if (!chat || chat.channel !== 'qr') throw toolError(`No saved QR chat ${conversationId} exists.`);
	const removed = account.messages.filter((m) => m.conversationId === conversationId && m.saved);
	const files = removed.filter((m) => m.attachment !== null).length;
	account.messages = account.messages.filter((m) => !removed.includes(m));
	account.chats.delete(conversationId);
	const group = isGroupConversation(conversationId);
	if (!group) account.contactNames.delete(digits(phoneOfConversation(conversationId)));
	const stopSaving = ctx.input.stopSaving === true;
	if (stopSaving) {
		const record = account.groups.get(conversationId);
		if (record) record.selected = false;
		else account.skipped.add(digits(phoneOfConversation(conversationId)));
	}
	return {
		conversation_id: conversationId,
		deleted: true,
		messages_deleted: removed.length,
		files_deleted: files,
		stopped_saving: stopSaving,
		note: 'Removed from the service only; nothing is deleted on the messaging network.',
	};
};

export const chatHandlers: Record<string, ToolHandler> = {
	check_recipient_send_options: checkRecipientSendOptions,
	delete_chat: deleteChat,
};
