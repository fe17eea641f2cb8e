import { sleep, type IWebhookFunctions } from 'n8n-workflow';

import type { BurstClosedBy, BurstRules } from '../shared/conversation/bursts';
import { historyBefore, type HistoryEntry } from '../shared/conversation/history';
import { pauseAt, TAKEOVER_LOOKBACK, type TakeoverRules } from '../shared/conversation/takeover';
import { mergeTimelines, toTimelineMessage } from '../shared/conversation/timeline';
import { eventMessage, type EventEnvelope, type EventMessage } from '../shared/webhooks/events';
import { createNodeClient } from '../shared/transport/nodeClient';
import { decideBurst, readConversation } from './conversationReader';
import type { TakeoverCheck } from './takeoverOutput';

export interface TurnSettings {
	/** Group Quick Messages; undefined: every message runs on its own. */
	grouping?: BurstRules;
	/** Include Conversation History: how many earlier messages; 0: none. */
	historyCount: number;
	/** Human Takeover; undefined: off. */
	takeover?: TakeoverRules;
}

/** What one delivery leads to: nothing (a later message of the burst starts the run) or a run. */
export type Turn =
	| { run: false }
	| {
			run: true;
			/** The turn's messages in the order they were written; undefined when grouping is off. */
			messages?: EventMessage[];
			closedBy?: BurstClosedBy;
			/** Why the messages could not be grouped: the delivered one runs on its own. */
			groupingError?: string;
			history?: HistoryEntry[];
			historyError?: string;
			/** Takeover's verdict for a person's message; undefined when takeover is off. */
			takeover?: TakeoverCheck;
	  };

/** The look-ups are made after the delivery was answered: retries may take their time. */
const READ_TIMEOUT_MS = 15_000;

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The turn a message.received delivery belongs to. With grouping, the handler waits out the quiet
 * window, reads the conversation from the service (the one truth every webhook process shares)
 * and starts the run only if its message is the last of its burst. With Human Takeover the same
 * read (made even without grouping or history) gives the conversation's pause state as of that
 * message. A failed read never drops the message: it runs on its own, saying why it was not
 * grouped and that its pause could not be checked.
 */
export async function readTurn(
	context: IWebhookFunctions,
	envelope: EventEnvelope,
	settings: TurnSettings,
): Promise<Turn> {
	const message = eventMessage(envelope);
	const own = message ? toTimelineMessage(message) : undefined;
	const fromPerson = envelope.type === 'message.received' && own !== undefined && !own.fromMe;
	const grouping = fromPerson ? settings.grouping : undefined;
	const historyCount = message ? settings.historyCount : 0;
	const takeover = fromPerson ? settings.takeover : undefined;
	if (!message || (!grouping && historyCount === 0 && !takeover)) return { run: true };
	if (grouping) await sleep(grouping.quietMs);
	try {
		const client = await createNodeClient(context, {
			timeoutMs: READ_TIMEOUT_MS,
			retry: { maxAttempts: 3 },
		});
		const read = await readConversation(
			client,
			message.conversation_id ?? '',
			Math.max(historyCount, takeover ? TAKEOVER_LOOKBACK : 0),
		);
		// The delivered message counts even if the read does not show it yet.
		if (own) read.timeline = mergeTimelines(read.timeline, [own]);
		const verdict = grouping && own ? await decideBurst(client, read, own, grouping) : undefined;
		if (verdict?.kind === 'notLast') return { run: false };
		const turn = verdict?.kind === 'last' ? verdict.messages : undefined;
		const first = turn?.[0]?.id ?? message.id ?? '';
		return {
			run: true,
			messages: turn?.map((entry) => entry.message),
			closedBy: verdict?.kind === 'last' ? verdict.closedBy : undefined,
			history: historyCount > 0 ? historyBefore(read.timeline, first, historyCount) : undefined,
			takeover: takeover && own ? pauseAt(read.timeline, own.id, takeover) : undefined,
		};
	} catch (error) {
		const reason = reasonOf(error);
		context.logger.warn(
			`Messaging Automation Trigger: conversation of ${envelope.id} not read: ${reason}`,
		);
		return {
			run: true,
			messages: grouping ? [message] : undefined,
			groupingError: grouping ? `Not grouped: ${reason}` : undefined,
			history: historyCount > 0 ? [] : undefined,
			historyError: historyCount > 0 ? `No history: ${reason}` : undefined,
			takeover: takeover ? { paused: null, error: `Pause not checked: ${reason}` } : undefined,
		};
	}
}
