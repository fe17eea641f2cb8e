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

/**
 * Where a turn's own messages end in `timeline`: just after the last of `currentIds` found there;
 * the end of the timeline when there are none; -1 when none of them was read (yet).
 */
export function turnEnd(timeline: readonly TimelineMessage[], currentIds: readonly string[]) {
	if (currentIds.length === 0) return timeline.length;
	const current = new Set(currentIds);
	for (let at = timeline.length - 1; at >= 0; at--) if (current.has(timeline[at].id)) return at + 1;
	return -1;
}

/**
 * What was written before a turn's own messages end, theirs left out, oldest first: in a group,
 * another member's message written while the person's burst was open is in it, once.
 */
export function earlierMessages(
	timeline: readonly TimelineMessage[],
	currentIds: readonly string[],
): TimelineMessage[] {
	const current = new Set(currentIds);
	return timeline
		.slice(0, Math.max(0, turnEnd(timeline, currentIds)))
		.filter((entry) => !current.has(entry.id));
}

/** The last `count` messages before the turn whose messages are `currentIds`, oldest first. */
export function historyBefore(
	timeline: readonly TimelineMessage[],
	currentIds: readonly string[],
	count: number,
): HistoryEntry[] {
	if (count <= 0) return [];
	return earlierMessages(timeline, currentIds).slice(-count).map(historyEntry);
}
