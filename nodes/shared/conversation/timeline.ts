import type { EventMessage } from '../webhooks/events';

/**
 * One saved message as the conversation layer reads it: the message object (the same shape in
 * events and in get_messages answers) plus its time as a number, for ordering and gaps.
 */
export interface TimelineMessage {
	message: EventMessage;
	id: string;
	at: number;
	fromMe: boolean;
	/** Who wrote it: the sender's phone in a group, the conversation in a one-to-one chat. */
	author: string;
	/**
	 * Service time by which the service had saved it: the `asOf` of the first read that showed it,
	 * as the trigger's held deliveries keep their reads (uploadWindow.ts); unset elsewhere.
	 */
	savedBy?: number;
}

function isMessage(value: unknown): value is EventMessage {
	const candidate = value as EventMessage | undefined;
	return (
		typeof candidate === 'object' &&
		candidate !== null &&
		typeof candidate.id === 'string' &&
		typeof candidate.timestamp === 'string'
	);
}

/** The author key: one person, whatever the chat; the account is one author of its own. */
function authorOf(message: EventMessage): string {
	if (message.from_me === true) return 'account';
	return `${message.conversation_id ?? ''}\n${message.from?.phone ?? ''}`;
}

export function toTimelineMessage(message: EventMessage): TimelineMessage | undefined {
	if (!isMessage(message)) return undefined;
	const at = Date.parse(message.timestamp as string);
	if (Number.isNaN(at)) return undefined;
	return {
		message,
		id: message.id as string,
		at,
		fromMe: message.from_me === true,
		author: authorOf(message),
	};
}

/**
 * The messages of one get_messages answer, oldest first. The answer's list is read from `messages`
 * (the assumed layout) or `items`; entries without an id or a readable timestamp are left out.
 * Messages with the same time keep the service's order (newest first), reversed.
 */
export function timelineOf(answer: unknown): TimelineMessage[] {
	const body = (answer ?? {}) as { messages?: unknown; items?: unknown };
	const list = Array.isArray(body.messages)
		? body.messages
		: Array.isArray(body.items)
			? body.items
			: [];
	const read = list
		.map((entry) => toTimelineMessage(entry as EventMessage))
		.filter((entry) => entry !== undefined);
	return read.reverse().sort((a, b) => a.at - b.at);
}

/** `more` merged into `timeline` by id (the first copy of an id wins), oldest first. */
export function mergeTimelines(
	timeline: readonly TimelineMessage[],
	more: readonly TimelineMessage[],
): TimelineMessage[] {
	const seen = new Set(timeline.map((entry) => entry.id));
	return [...timeline, ...more.filter((entry) => !seen.has(entry.id))].sort((a, b) => a.at - b.at);
}
