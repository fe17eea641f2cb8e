/*
 * One page of list_conversations, whose answer the spec does not show (docs/assumptions.md): the
 * list under `conversations` (the sandbox's), `items` or `data`, or the answer itself; each chat's
 * id as `conversation_id`, `conversationId` or `id`; its newest message's time as
 * `last_message_at`, `last_message.timestamp`, `last_activity_at` or `updated_at`. Who wrote that
 * message is not asked: a chat the account wrote last can still hold a burst nobody answered
 * (catchUp.ts, R5-4). A chat without an id or a readable time is left out.
 */

export interface ListedChat {
	conversationId: string;
	/** Service time of the chat's newest message. */
	lastAt: number;
}

export interface ListedPage {
	chats: ListedChat[];
	cursor?: string;
}

type Loose = Record<string, unknown>;

const record = (value: unknown): Loose | undefined =>
	typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as Loose)
		: undefined;

const firstText = (...values: unknown[]): string | undefined =>
	values.find((value): value is string => typeof value === 'string' && value !== '');

function listOf(answer: unknown): unknown[] {
	if (Array.isArray(answer)) return answer;
	const body = record(answer) ?? {};
	for (const field of ['conversations', 'items', 'data'])
		if (Array.isArray(body[field])) return body[field] as unknown[];
	return [];
}

function chatOf(entry: unknown): ListedChat | undefined {
	const chat = record(entry);
	if (!chat) return undefined;
	const last = record(chat.last_message);
	const conversationId = firstText(chat.conversation_id, chat.conversationId, chat.id);
	const at = Date.parse(
		firstText(chat.last_message_at, last?.timestamp, chat.last_activity_at, chat.updated_at) ?? '',
	);
	if (!conversationId || Number.isNaN(at)) return undefined;
	return { conversationId, lastAt: at };
}

export function listedPage(answer: unknown): ListedPage {
	const chats = listOf(answer)
		.map(chatOf)
		.filter((chat) => chat !== undefined);
	const cursor = firstText(record(answer)?.next_cursor);
	return { chats, ...(cursor ? { cursor } : {}) };
}
