import { sleep, type IWebhookFunctions } from 'n8n-workflow';

import type { BurstClosedBy, BurstRules } from '../shared/conversation/bursts';
import { historyBefore, type HistoryEntry } from '../shared/conversation/history';
import { mergeTimelines, toTimelineMessage } from '../shared/conversation/timeline';
import { eventMessage, type EventEnvelope, type EventMessage } from '../shared/webhooks/events';
import { ConversationReader } from './conversationReader';
import { holdDelivery, type Settlement } from './heldDeliveries';

export interface TurnSettings {
	/** Group Quick Messages; undefined: every message runs on its own. */
	grouping?: BurstRules;
	/** Include Conversation History: how many earlier messages; 0: none. */
	historyCount: number;
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
	  };

/** The delivery being handled: who answers it, and where its trigger's held deliveries are kept. */
export interface DeliveryContext {
	/** Answers the delivery 200; later calls do nothing. */
	answer: () => void;
	/** One trigger node at one webhook URL. */
	scope: string;
	arrivedAt: number;
}

/**
 * A grouped delivery is answered once its outcome is settled, and at the latest this long after
 * it arrived: inside the service's ten-second receiver time-out, with room for a slow answer.
 */
const LONGEST_HOLD_MS = 8000;
const HOLD_PAST_QUIET_MS = 1000;
/** A history-only read waits out a busy service this long before the run starts without history. */
const HISTORY_PATIENCE_MS = 10_000;
/** A delivery arriving this long after its message was written came late: after a retry, most likely. */
const LATE_DELIVERY_MS = 10_000;

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function holdMsOf(rules: BurstRules): number {
	return Math.min(rules.quietMs + HOLD_PAST_QUIET_MS, LONGEST_HOLD_MS);
}

/**
 * The turn a message delivery belongs to. With grouping, the delivery is held with the others of
 * its conversation until one read of the conversation (the one truth every webhook process
 * shares) settles whether its message is the last of its burst; only that one starts the run. A
 * failed read never drops the message: it runs on its own, saying why it was not grouped.
 * Without grouping the delivery is answered at once, and history is read before the run.
 */
export async function readTurn(
	context: IWebhookFunctions,
	envelope: EventEnvelope,
	settings: TurnSettings,
	delivery: DeliveryContext,
): Promise<Turn> {
	const message = eventMessage(envelope);
	const own = message ? toTimelineMessage(message) : undefined;
	const grouping =
		envelope.type === 'message.received' && own && !own.fromMe ? settings.grouping : undefined;
	const historyCount = message ? settings.historyCount : 0;
	if (!grouping || !own || !message) {
		delivery.answer();
		if (!message || historyCount === 0) return { run: true };
		return await historyTurn(context, message, historyCount);
	}
	void sleep(holdMsOf(grouping)).then(delivery.answer);
	const settlement = await holdDelivery(delivery.scope, message.conversation_id ?? '', grouping, {
		message: own,
		arrivedAt: delivery.arrivedAt,
		answer: delivery.answer,
		reader: new ConversationReader(context, historyCount, grouping.longestMs),
	});
	delivery.answer();
	return turnOf(context, settlement, message, historyCount, delivery.arrivedAt - own.at);
}

async function historyTurn(
	context: IWebhookFunctions,
	message: EventMessage,
	historyCount: number,
): Promise<Turn> {
	const own = toTimelineMessage(message);
	try {
		const reader = new ConversationReader(context, historyCount, HISTORY_PATIENCE_MS);
		const read = await reader.read(message.conversation_id ?? '');
		const timeline = own ? mergeTimelines(read.timeline, [own]) : read.timeline;
		return { run: true, history: historyBefore(timeline, message.id ?? '', historyCount) };
	} catch (error) {
		const reason = reasonOf(error);
		context.logger.warn(
			`Messaging Automation Trigger: conversation of message ${String(message.id)} not read: ${reason}`,
		);
		return { run: true, history: [], historyError: `No history: ${reason}` };
	}
}

function turnOf(
	context: IWebhookFunctions,
	settlement: Settlement,
	message: EventMessage,
	historyCount: number,
	deliveredAfterMs: number,
): Turn {
	if (settlement.kind === 'none') return { run: false };
	if (settlement.kind === 'failed') {
		context.logger.warn(
			`Messaging Automation Trigger: conversation of message ${String(message.id)} not read: ${settlement.reason}`,
		);
		return {
			run: true,
			messages: [message],
			groupingError: `Not grouped: ${settlement.reason}`,
			history: historyCount > 0 ? [] : undefined,
			historyError: historyCount > 0 ? `No history: ${settlement.reason}` : undefined,
		};
	}
	const { verdict, read } = settlement;
	if (deliveredAfterMs > LATE_DELIVERY_MS)
		context.logger.warn(
			`Messaging Automation Trigger: a burst of ${verdict.messages.length} message(s) in conversation ${read.conversationId} runs late: its last message was delivered ${Math.round(deliveredAfterMs / 1000)} s after it was written. The service sends a delivery again when an earlier attempt got no answer (n8n or this webhook process was stopped, restarted or too busy to answer within 10 s), and late while its deliveries queue up`,
		);
	return {
		run: true,
		messages: verdict.messages.map((entry) => entry.message),
		closedBy: verdict.closedBy,
		history:
			historyCount > 0
				? historyBefore(read.timeline, verdict.messages[0].id, historyCount)
				: undefined,
	};
}
