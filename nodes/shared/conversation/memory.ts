import type { Message } from '@n8n/ai-node-sdk';

import { historyEntry, messagesBefore } from './history';
import type { TimelineMessage } from './timeline';

/*
 * An AI Agent's memory made from the saved conversation: the person's messages are the user's
 * turns, the account's (the bot's replies, staff typing on the phone, other workflows' sends) the
 * assistant's. The run's own message or burst is the Agent's input, so the memory ends before it.
 */

/**
 * Where the run's own messages start in `timeline`: the first of `currentIds` found there; the
 * end of the timeline when there are none; -1 when none of them was read (yet).
 */
export function turnStart(timeline: readonly TimelineMessage[], currentIds: readonly string[]) {
	if (currentIds.length === 0) return timeline.length;
	const current = new Set(currentIds);
	return timeline.findIndex((entry) => current.has(entry.id));
}

/** Whether an older page could still change the memory: the run's messages not found, or too few before them. */
export function needsOlderPage(
	timeline: readonly TimelineMessage[],
	currentIds: readonly string[],
	count: number,
): boolean {
	const start = turnStart(timeline, currentIds);
	return start < 0 || start < count;
}

/** In a group the model needs to know who of the people spoke; the account is always the assistant. */
function chatMessage(entry: TimelineMessage): Message {
	const { name, text } = historyEntry(entry);
	if (entry.fromMe) return { role: 'assistant', content: [{ type: 'text', text }] };
	const inGroup = entry.message.chat_type === 'group';
	return { role: 'user', content: [{ type: 'text', text: inGroup ? `${name}: ${text}` : text }] };
}

/** The last `count` messages before the run's own, oldest first, as the Agent's chat history. */
export function memoryMessages(
	timeline: readonly TimelineMessage[],
	currentIds: readonly string[],
	count: number,
): Message[] {
	return messagesBefore(timeline, turnStart(timeline, currentIds), count).map(chatMessage);
}
