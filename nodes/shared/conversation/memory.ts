import type { Message } from '@n8n/ai-node-sdk';

import { earlierMessages, historyEntry, turnEnd } from './history';
import type { TimelineMessage } from './timeline';

/*
 * An AI Agent's memory made from the saved conversation: the person's messages are the user's
 * turns, the account's (the bot's replies, staff typing on the phone, other workflows' sends) the
 * assistant's. The run's own message or burst is the Agent's input, so the memory holds what was
 * written up to its last message but not its own messages: in a group, another member's message
 * written while the person's burst was open is in the memory, once.
 */

/** Whether an older page could still change the memory: the run's messages not found, or too few before them. */
export function needsOlderPage(
	timeline: readonly TimelineMessage[],
	currentIds: readonly string[],
	count: number,
): boolean {
	return turnEnd(timeline, currentIds) < 0 || earlierMessages(timeline, currentIds).length < count;
}

/** In a group the model needs to know who of the people spoke; the account is always the assistant. */
function chatMessage(entry: TimelineMessage): Message {
	const { name, text } = historyEntry(entry);
	if (entry.fromMe) return { role: 'assistant', content: [{ type: 'text', text }] };
	const inGroup = entry.message.chat_type === 'group';
	return { role: 'user', content: [{ type: 'text', text: inGroup ? `${name}: ${text}` : text }] };
}

/** The last `count` messages up to the run's own (theirs left out), oldest first, as the Agent's chat history. */
export function memoryMessages(
	timeline: readonly TimelineMessage[],
	currentIds: readonly string[],
	count: number,
): Message[] {
	if (count <= 0) return [];
	return earlierMessages(timeline, currentIds).slice(-count).map(chatMessage);
}
