import type { IWebhookFunctions } from 'n8n-workflow';

import type { BurstClosedBy, BurstRules } from '../../shared/conversation/bursts';
import { historyBefore, type HistoryEntry } from '../../shared/conversation/history';
import {
	burstPauseAt,
	pauseAt,
	TAKEOVER_LOOKBACK,
	type TakeoverRules,
} from '../../shared/conversation/takeover';
import {
	mergeTimelines,
	toTimelineMessage,
	type TimelineMessage,
} from '../../shared/conversation/timeline';
import { eventMessage, type EventEnvelope, type EventMessage } from '../../shared/webhooks/events';
import { ConversationReader, reasonOf } from '../../shared/conversation/reader';
import type { ConversationRead } from '../../shared/conversation/reader';
import {
	ASKED_BY_MS,
	HOLD_MS,
	UNGROUPED_PATIENCE_MS,
} from '../../shared/conversation/deliveryTiming';
import { mayBeAnswer } from '../../shared/conversation/answers';
import {
	findAnswers,
	type AnswerOffer,
	type FoundAnswers,
	type WaitingQuestion,
} from '../answers/answerRoute';
import type { Settlement } from './settlement';
import { holdDelivery } from './heldDeliveries';
import type { DeliveryContext } from '../receive/deliveryContext';
import type { TakeoverCheck } from '../run/takeoverOutput';
import { deadlineIn } from '../../shared/monotonic';

export interface TurnSettings {
	/** Group Quick Messages; undefined: every message runs on its own. */
	grouping?: BurstRules;
	/** Include Conversation History: how many earlier messages; 0: none. */
	historyCount: number;
	/** Human Takeover; undefined: off. */
	takeover?: TakeoverRules;
	/** Pass Answers to Send and Wait. */
	answers: boolean;
}

/**
 * What one delivery leads to: nothing (a later message of the burst starts the run; with
 * `handBack`, the delivery goes back to the service unsettled to be sent again) or a run.
 */
export type Turn =
	| { run: false; handBack?: true }
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
			/** With Pass Answers: the question still waiting in the chat, null: none. */
			waitingQuestion?: WaitingQuestion | null;
			/** Messages that answer waiting questions: the run offers them once it claimed them (answerPass.ts). */
			answerOffers?: AnswerOffer[];
			/** The grouped burst's read: what it may catch up (run/caughtUp.ts). */
			read?: ConversationRead;
	  };

/** What a read serves besides grouping: how much history, whether takeover asks, and answers. */
export interface ReadNeeds {
	historyCount: number;
	takeover?: TakeoverRules;
	answers: boolean;
	/** A grouped burst's rules, and its phone's lag as the delivery shows it (burstPauseAt). */
	pauseWindow?: { rules: BurstRules; lagMs: number };
}

/** The newest page must reach as far back as history and takeover look. */
export const pageMinimum = (needs: Pick<ReadNeeds, 'historyCount' | 'takeover'>) =>
	Math.max(needs.historyCount, needs.takeover ? TAKEOVER_LOOKBACK : 0);

/**
 * The turn a message delivery belongs to. With grouping, the delivery is held with the others of
 * its conversation until one read of the conversation (the one truth every webhook process
 * shares) settles whether its message is the last of its burst; only that one starts the run.
 * Without grouping the conversation is read before the run when history or takeover needs it.
 * With Human Takeover the same read gives the conversation's pause state as of the turn's last
 * message. A failed read never drops the message: it runs on
 * its own, saying why it was not grouped and that its pause could not be checked.
 */
export async function readTurn(
	context: IWebhookFunctions,
	envelope: EventEnvelope,
	settings: TurnSettings,
	delivery: DeliveryContext,
): Promise<Turn> {
	const message = eventMessage(envelope);
	const own = message ? toTimelineMessage(message) : undefined;
	const fromPerson = envelope.type === 'message.received' && own !== undefined && !own.fromMe;
	const grouping = fromPerson ? settings.grouping : undefined;
	const needs: ReadNeeds = {
		historyCount: message ? settings.historyCount : 0,
		takeover: fromPerson ? settings.takeover : undefined,
		answers: fromPerson && settings.answers,
		pauseWindow: grouping && {
			rules: grouping,
			lagMs: own && delivery.queuedAt !== undefined ? delivery.queuedAt - own.at : 0,
		},
	};
	if (!grouping || !own || !message) {
		if (!message || (needs.historyCount === 0 && !needs.takeover && !needs.answers))
			return { run: true };
		return await ungroupedTurn(context, message, own, needs, delivery);
	}
	const reader = new ConversationReader(context, pageMinimum(needs));
	const settlement = await holdDelivery(
		delivery.scope,
		message.conversation_id ?? '',
		grouping,
		delivery.clock,
		{
			message: own,
			deadline: delivery.sentLocallyAt + HOLD_MS,
			queuedAt: delivery.queuedAt,
			givesUp: delivery.givesUp,
			reply: delivery.reply,
			reader,
		},
	);
	if (settlement.kind === 'retry') return { run: false, handBack: true };
	const sentLateMs = delivery.retried ? delivery.sentAt - own.at : undefined;
	if (settlement.kind === 'failed' && needs.answers) {
		const unread = handedBackUnread(delivery, own);
		if (unread) return unread;
	}
	if (settlement.kind !== 'run' || !needs.answers)
		return turnOf(context, settlement, message, needs, sentLateMs);
	const found = await findAnswers(
		context,
		reader,
		settlement.read,
		settlement.verdict.messages,
		askBy(delivery),
	);
	if (unoffered(found, delivery)) return { run: false, handBack: true };
	return withAnswers(turnOf(context, settlement, message, needs, sentLateMs), found);
}

/**
 * When a delivery's asks of its questions end (ASKED_BY_MS): none once it was answered, its burst
 * still open at its deadline (a Quiet Window longer than the hold), as nothing waits on them then
 * (R11c-2).
 */
const askBy = (delivery: DeliveryContext) =>
	delivery.reply.answered ? undefined : delivery.sentLocallyAt + ASKED_BY_MS;

/** A run's turn with what Pass Answers found: the question still waiting, the offers to make. */
function withAnswers(turn: Turn, found: FoundAnswers): Turn {
	if (!turn.run) return turn;
	return {
		...turn,
		waitingQuestion: found.waiting,
		...(found.offers.length > 0 ? { answerOffers: found.offers } : {}),
	};
}

/**
 * A message that could answer a question, whose conversation could not be read, goes back to the
 * service (never run as an ordinary message while it may be an answer), until the service's third
 * attempt (a held one gives up then too).
 */
function handedBackUnread(delivery: DeliveryContext, own: TimelineMessage): Turn | undefined {
	if (mayBeAnswer(own) && !delivery.givesUp && delivery.reply.handBack())
		return { run: false, handBack: true };
	return undefined;
}

/**
 * Whether the delivery goes back because its answers could not be found (a probe or the read back
 * to a quoted question failed): nothing is claimed or offered yet, so the service's retry finds
 * them anew, until its third attempt (a held one gives up then too), which runs the messages.
 */
function unoffered(found: FoundAnswers, delivery: DeliveryContext): boolean {
	return found.failed && !delivery.givesUp && delivery.reply.handBack();
}

/**
 * What history and takeover make of a read, for the turn of the messages `ids` whose pause is
 * judged at `pausedAsOf`.
 */
export function readFields(
	timeline: readonly TimelineMessage[],
	ids: readonly string[],
	pausedAsOf: string,
	needs: Pick<ReadNeeds, 'historyCount' | 'takeover'>,
): Pick<Extract<Turn, { run: true }>, 'history' | 'takeover'> {
	return {
		history: needs.historyCount > 0 ? historyBefore(timeline, ids, needs.historyCount) : undefined,
		takeover: needs.takeover ? pauseAt(timeline, pausedAsOf, needs.takeover) : undefined,
	};
}

/** The same fields when the conversation could not be read. */
function unreadFields(
	context: IWebhookFunctions,
	message: EventMessage,
	reason: string,
	needs: ReadNeeds,
): Pick<Extract<Turn, { run: true }>, 'history' | 'historyError' | 'takeover'> {
	context.logger.warn(
		`Messaging Automation Trigger: conversation of message ${String(message.id)} not read: ${reason}`,
	);
	return {
		history: needs.historyCount > 0 ? [] : undefined,
		historyError: needs.historyCount > 0 ? `No history: ${reason}` : undefined,
		takeover: needs.takeover ? { paused: null, error: `Pause not checked: ${reason}` } : undefined,
	};
}

async function ungroupedTurn(
	context: IWebhookFunctions,
	message: EventMessage,
	own: TimelineMessage | undefined,
	needs: ReadNeeds,
	delivery: DeliveryContext,
): Promise<Turn> {
	const id = message.id ?? '';
	let timeline: TimelineMessage[];
	let found: FoundAnswers | undefined;
	try {
		const reader = new ConversationReader(context, pageMinimum(needs));
		const read = await reader.read(
			message.conversation_id ?? '',
			deadlineIn(UNGROUPED_PATIENCE_MS),
		);
		if (own && needs.answers) {
			found = await findAnswers(context, reader, read, [own], askBy(delivery));
			if (unoffered(found, delivery)) return { run: false, handBack: true };
		}
		timeline = own ? mergeTimelines(read.timeline, [own]) : read.timeline;
	} catch (error) {
		const unread = own && needs.answers ? handedBackUnread(delivery, own) : undefined;
		return unread ?? { run: true, ...unreadFields(context, message, reasonOf(error), needs) };
	}
	const turn: Turn = { run: true, ...readFields(timeline, [id], id, needs) };
	return found ? withAnswers(turn, found) : turn;
}

function turnOf(
	context: IWebhookFunctions,
	settlement: Settlement,
	message: EventMessage,
	needs: ReadNeeds,
	/** How late a retried delivery was sent after its message; undefined when not retried. */
	sentLateMs: number | undefined,
): Turn {
	if (settlement.kind === 'none' || settlement.kind === 'retry') return { run: false };
	if (settlement.kind === 'failed') {
		return {
			run: true,
			messages: [message],
			groupingError: `Not grouped: ${settlement.reason}`,
			...unreadFields(context, message, settlement.reason, needs),
		};
	}
	const { verdict, read } = settlement;
	if (sentLateMs !== undefined)
		context.logger.warn(
			`Messaging Automation Trigger: a burst of ${verdict.messages.length} message(s) in conversation ${read.conversationId} runs late: the service sent its last message's delivery ${Math.round(sentLateMs / 1000)} s after the message was written. The service sends a delivery again when an earlier attempt got no answer (n8n or this webhook process was stopped, restarted or too busy to answer within 10 s), and sends late while deliveries queue up`,
		);
	const messages = verdict.messages;
	return {
		run: true,
		messages: messages.map((entry) => entry.message),
		closedBy: verdict.closedBy,
		read,
		...readFields(
			read.timeline,
			messages.map((entry) => entry.id),
			burstPauseAt(
				read.timeline,
				messages.map((entry) => entry.id),
				needs.pauseWindow?.rules,
				needs.pauseWindow?.lagMs,
			),
			needs,
		),
	};
}
