import { eventMessage, type EventEnvelope } from '../../shared/webhooks/events';

export type ChatTypeFilter = 'group' | 'oneToOne';

export interface EventFilters {
	eventTypes: readonly string[];
	/** Empty: every channel. */
	channels: readonly string[];
	chatType?: ChatTypeFilter;
	ignoreOwnMessages: boolean;
	/** Lower-case; empty: every status. */
	statusValues: readonly string[];
}

export type FilterVerdict = { pass: true } | { pass: false; reason: string };

const PASS: FilterVerdict = { pass: true };

/**
 * Whether an event should start an execution. A filter only judges events that carry the field
 * it looks at: a channel filter lets `webhook.test` (which has no channel) through, and the
 * status filter concerns `message.status` events alone.
 */
export function filterEvent(envelope: EventEnvelope, filters: EventFilters): FilterVerdict {
	if (!filters.eventTypes.includes(envelope.type)) {
		return { pass: false, reason: `event type ${envelope.type} is not selected` };
	}
	const message = eventMessage(envelope);
	const channel = message?.channel ?? envelope.data.channel;
	if (
		filters.channels.length > 0 &&
		typeof channel === 'string' &&
		!filters.channels.includes(channel)
	) {
		return { pass: false, reason: `channel ${channel} is filtered out` };
	}
	if (message) {
		if (filters.ignoreOwnMessages && message.from_me === true) {
			return { pass: false, reason: 'own message ignored' };
		}
		if (filters.chatType && chatTypeOf(message.chat_type) !== filters.chatType) {
			return { pass: false, reason: `chat type ${String(message.chat_type)} is filtered out` };
		}
	}
	if (envelope.type === 'message.status' && filters.statusValues.length > 0) {
		const status = String(envelope.data.status ?? '').toLowerCase();
		if (!filters.statusValues.includes(status)) {
			return { pass: false, reason: `status ${status || '(none)'} is filtered out` };
		}
	}
	return PASS;
}

/** Spec: `chat_type` is `group` for groups; every other value means a one-to-one chat. */
function chatTypeOf(value: unknown): ChatTypeFilter {
	return value === 'group' ? 'group' : 'oneToOne';
}

/** "delivered, Read ,failed" → ['delivered', 'read', 'failed'] */
export function parseStatusList(text: string): string[] {
	return text
		.split(',')
		.map((value) => value.trim().toLowerCase())
		.filter((value) => value.length > 0);
}
