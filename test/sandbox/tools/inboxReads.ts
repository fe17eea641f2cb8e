import { visibleMessages } from '../inbox';
import { messageObject } from '../messageView';
import type { MessageRecord } from '../model';
import { type ToolContext, type ToolHandler, invalidInput, str, toolError } from './context';

const DEFAULT_LIMIT = 20;

/** Opaque cursors: base64url of the offset, so callers cannot rely on their content. */
function page<T>(ctx: ToolContext, items: T[]): { items: T[]; next_cursor: string | null } {
	const cursor = str(ctx.input, 'cursor');
	let offset = 0;
	if (cursor !== undefined) {
		const decoded = /^o(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
		if (!decoded) throw invalidInput('cursor', 'is not a next_cursor value returned by this tool');
		offset = Number(decoded[1]);
	}
	const limit = (ctx.input.limit as number | undefined) ?? DEFAULT_LIMIT;
	const next =
		offset + limit < items.length ? Buffer.from(`o${offset + limit}`).toString('base64url') : null;
	return { items: items.slice(offset, offset + limit), next_cursor: next };
}

/** Newest first; of two with the same timestamp, the one saved later comes first. */
function newestFirst(messages: MessageRecord[]): MessageRecord[] {
	return messages
		.map((message, saved) => ({ message, saved }))
		.sort((a, b) => b.message.timestamp - a.message.timestamp || b.saved - a.saved)
		.map(({ message }) => message);
}

function scoped(ctx: ToolContext): MessageRecord[] {
	const conversationId = str(ctx.input, 'conversationId');
	const channel = str(ctx.input, 'channel');
	return visibleMessages(ctx.account).filter(
		(m) =>
			!m.deleted &&
			(conversationId === undefined || m.conversationId === conversationId) &&
			(channel === undefined || m.channel === channel),
	);
}

const listConversations: ToolHandler = (ctx) => {
	const channel = str(ctx.input, 'channel');
	const chatType = str(ctx.input, 'chat_type');
	const messages = visibleMessages(ctx.account);
	const chats = [...ctx.account.chats.values()]
		.filter(
			(c) =>
				(channel === undefined || c.channel === channel) &&
				(chatType === undefined || c.chatType === chatType),
		)
		.map((c) => {
			const last = newestFirst(messages.filter((m) => m.conversationId === c.conversationId))[0];
			return {
				conversation_id: c.conversationId,
				channel: c.channel,
				chat_type: c.chatType,
				name: c.name,
				...(c.chatType === 'group' ? { group: { id: c.conversationId, name: c.name } } : {}),
				last_message_at: last ? new Date(last.timestamp).toISOString() : null,
				last_message_text: last ? last.text : null,
			};
		})
		.sort((a, b) => (b.last_message_at ?? '').localeCompare(a.last_message_at ?? ''));
	const { items, next_cursor } = page(ctx, chats);
	return { conversations: items, next_cursor };
};

const getMessages: ToolHandler = (ctx) => {
	const conversationId = str(ctx.input, 'conversationId') ?? '';
	if (!ctx.account.chats.has(conversationId))
		throw toolError(`No saved conversation ${conversationId} exists.`);
	const { items, next_cursor } = page(ctx, newestFirst(scoped(ctx)).map(messageObject));
	return { messages: items, next_cursor };
};

const searchMessages: ToolHandler = (ctx) => {
	const query = (str(ctx.input, 'query') ?? '').toLowerCase();
	const hits = newestFirst(scoped(ctx).filter((m) => m.text.toLowerCase().includes(query)));
	const { items, next_cursor } = page(ctx, hits.map(messageObject));
	return { messages: items, next_cursor };
};

const searchAttachments: ToolHandler = (ctx) => {
	const query = str(ctx.input, 'query')?.toLowerCase();
	const mime = str(ctx.input, 'mimeType')?.toLowerCase();
	const hits = newestFirst(
		scoped(ctx).filter((m) => {
			const file = m.attachment;
			if (!file) return false;
			const matchesQuery =
				query === undefined || `${file.fileName} ${m.text}`.toLowerCase().includes(query);
			return matchesQuery && (mime === undefined || file.mimeType.toLowerCase().startsWith(mime));
		}),
	).map((m) => ({
		message_id: m.id,
		stored_message_id: m.storedId,
		conversation_id: m.conversationId,
		channel: m.channel,
		file_name: m.attachment?.fileName,
		mime_type: m.attachment?.mimeType,
		size: m.attachment?.size,
		download_available: m.attachment?.downloadAvailable ?? false,
		caption: m.text,
		timestamp: new Date(m.timestamp).toISOString(),
	}));
	const { items, next_cursor } = page(ctx, hits);
	return { items, next_cursor };
};

export const inboxReadHandlers: Record<string, ToolHandler> = {
	list_conversations: listConversations,
	get_messages: getMessages,
	search_messages: searchMessages,
	search_attachments: searchAttachments,
};
