import { findMessage } from '../inbox';
import { SCOPES } from '../model';
import { type ToolHandler, str, toolError } from './context';

const getOperation: ToolHandler = (ctx) => {
	const id = str(ctx.input, 'operation_id');
	const key = str(ctx.input, 'idempotencyKey');
	const mine = [...ctx.state.operations.values()].filter((op) => op.accountId === ctx.account.id);
	// By key, the latest attempt tells the truth: a retry may have succeeded after a failed first try.
	const op =
		id !== undefined
			? mine.find((o) => o.id === id)
			: mine.filter((o) => o.idempotencyKey === key).at(-1);
	if (!op)
		throw toolError(
			`No operation ${id ?? `with idempotency key ${key}`} is known; nothing was recorded for it.`,
		);
	return {
		operation_id: op.id,
		tool: op.tool,
		status: op.status,
		...(op.result !== undefined ? { result: op.result } : {}),
		...(op.error ? { error: op.error } : {}),
	};
};

const getSendStatus: ToolHandler = (ctx) => {
	const id = str(ctx.input, 'message_id');
	const key = str(ctx.input, 'idempotencyKey');
	const message =
		id !== undefined
			? findMessage(ctx.account, id)
			: ctx.account.messages.find((m) => m.fromMe && m.idempotencyKey === key);
	if (!message || !message.fromMe)
		return { status: 'not_found', ...(id !== undefined ? { message_id: id } : {}) };
	return {
		status: message.status,
		message_id: message.id,
		channel: message.channel,
		conversation_id: message.conversationId,
	};
};

const getAccountContext: ToolHandler = (ctx) => {
	const { account, key } = ctx;
	const messages = account.messages.filter((m) => m.saved);
	const newest = messages.reduce((max, m) => Math.max(max, m.timestamp), account.historyFrom);
	return {
		account: { id: account.id, name: account.name, plan: account.plan },
		channels: (['qr', 'business'] as const).map((channel) => ({
			channel,
			phone: account.channels[channel].phone,
			connected: account.channels[channel].connected,
		})),
		ready: account.channels.qr.connected || account.channels.business.connected,
		inbox_storage_consent: account.inboxStorageConsent,
		history: { from: ctx.state.iso(account.historyFrom), to: ctx.state.iso(newest) },
		capabilities: {
			read: key.scopes.includes(SCOPES.read) && account.inboxStorageConsent,
			prepare: key.scopes.includes(SCOPES.read),
			send: key.scopes.includes(SCOPES.send),
		},
		key: { name: key.name, scopes: [...key.scopes], owner: key.owner },
	};
};

export const operationHandlers: Record<string, ToolHandler> = {
	get_operation: getOperation,
	get_send_status: getSendStatus,
	get_account_context: getAccountContext,
};
