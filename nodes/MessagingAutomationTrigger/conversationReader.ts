import { getMessagesTool } from '../shared/catalogue/tools/get_messages';
import type { MessagingClient } from '../shared/client';
import { burstOf, type BurstRules, type BurstVerdict } from '../shared/conversation/bursts';
import { mergeTimelines, timelineOf, type TimelineMessage } from '../shared/conversation/timeline';

/** get_messages pages (the service allows up to 100 a call). */
const PAGE_SIZE = 50;
/** How far back a chain of quick messages is followed: a person typing non-stop for this many messages. */
const MAX_PAGES = 4;

export interface ConversationRead {
	conversationId: string;
	timeline: TimelineMessage[];
	/** Where the next older page starts; undefined once the whole saved conversation was read. */
	cursor?: string;
	reads: number;
}

interface MessagesPage {
	messages?: unknown;
	items?: unknown;
	next_cursor?: unknown;
}

/**
 * The conversation's newest saved messages through get_messages, newest page first, as one
 * timeline (oldest first). `minimum` asks for at least that many messages (the history).
 */
export async function readConversation(
	client: MessagingClient,
	conversationId: string,
	minimum: number,
): Promise<ConversationRead> {
	const read: ConversationRead = { conversationId, timeline: [], reads: 0 };
	await readOlder(client, read, Math.min(100, Math.max(PAGE_SIZE, minimum + 10)));
	return read;
}

async function readOlder(
	client: MessagingClient,
	read: ConversationRead,
	limit = PAGE_SIZE,
): Promise<void> {
	const input = {
		conversationId: read.conversationId,
		limit,
		...(read.cursor ? { cursor: read.cursor } : {}),
	};
	const { data } = await client.callTool<MessagesPage>(getMessagesTool.name, input);
	read.reads++;
	read.timeline = mergeTimelines(timelineOf(data), read.timeline);
	read.cursor =
		typeof data?.next_cursor === 'string' && data.next_cursor !== '' ? data.next_cursor : undefined;
}

/**
 * Where `message` stands in its author's burst, reading older pages while the chain may reach
 * further back. Past MAX_PAGES the oldest message read counts as the chain's start.
 */
export async function decideBurst(
	client: MessagingClient,
	read: ConversationRead,
	message: TimelineMessage,
	rules: BurstRules,
): Promise<BurstVerdict> {
	for (;;) {
		const verdict = burstOf(
			read.timeline,
			message.id,
			rules,
			read.cursor === undefined || read.reads >= MAX_PAGES,
		);
		if (verdict.kind !== 'needOlder') return verdict;
		await readOlder(client, read);
	}
}
