import { withoutLiveLinks } from './questionLinks';
import type { TimelineMessage } from './timeline';

/**
 * A conversation's earlier messages as an AI Agent's prompt can use them: who spoke (the person,
 * by name, or the account), what they wrote and when. `history_text` is the same as lines,
 * oldest first, ready to paste into a prompt with `{{ $json.history_text }}`.
 */
export interface HistoryEntry {
	role: 'person' | 'account';
	name: string;
	text: string;
	time: string;
	message_id: string;
}

/**
 * What a message stands for in the history: a photo is not an empty line, and a Send and Wait
 * question keeps its words but not its signed links (a model that repeats a link must not hand
 * anyone an approval).
 */
function textOf(entry: TimelineMessage): string {
	const { text, type, attachment } = entry.message;
	if (typeof text === 'string' && text !== '') return withoutLiveLinks(text);
	const fileName = typeof attachment?.file_name === 'string' ? ` ${attachment.file_name}` : '';
	return `[${typeof type === 'string' && type !== '' ? type : 'message'}${fileName}]`;
}

export function historyEntry(entry: TimelineMessage): HistoryEntry {
	const from = entry.message.from;
	const name = entry.fromMe ? 'You' : from?.name || from?.phone || 'Unknown';
	return {
		role: entry.fromMe ? 'account' : 'person',
		name,
		text: textOf(entry),
		time: new Date(entry.at).toISOString(),
		message_id: entry.id,
	};
}

export function historyText(entries: readonly HistoryEntry[]): string {
	return entries
		.map((entry) => `[${entry.time.slice(0, 16).replace('T', ' ')}] ${entry.name}: ${entry.text}`)
		.join('\n');
}

/** The last `count` messages before position `end` of `timeline`, oldest first. */
export function messagesBefore(
	timeline: readonly TimelineMessage[],
	end: number,
	count: number,
): TimelineMessage[] {
	if (count <= 0 || end <= 0) return [];
	return timeline.slice(Math.max(0, end - count), end);
}

/** The last `count` messages before the message `firstId` (the turn's first), oldest first. */
export function historyBefore(
	timeline: readonly TimelineMessage[],
	firstId: string,
	count: number,
): HistoryEntry[] {
	const end = timeline.findIndex((entry) => entry.id === firstId);
	return messagesBefore(timeline, end, count).map(historyEntry);
}
