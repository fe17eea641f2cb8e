import type { INodeExecutionData } from 'n8n-workflow';

import {
	answerBursts,
	unansweredBursts,
	type CatchUpWindow,
	type MissedBurst,
} from '../../shared/conversation/catchUp';
import {
	ConversationReader,
	MAX_PAGES,
	type ConversationRead,
} from '../../shared/conversation/reader';
import { deadlineIn } from '../../shared/monotonic';
import type { EventEnvelope } from '../../shared/webhooks/events';
import { findAnswers, type FoundAnswers, type RouteContext } from '../answers/answerRoute';
import { filterEvent } from '../receive/eventFilter';
import { caughtUpItem, NEVER_DELIVERED, WHILE_INACTIVE, type CaughtUpItem } from '../run/caughtUp';
import { takeoverWorkflowData } from '../run/takeoverOutput';
import type { ListedChat } from './conversationList';
import type { PollContext, Window } from './pollMemory';
import { asked, givesUp, PROBE_GIVE_UP_MS, PROBE_GIVE_UP_POLLS } from './probePatience';
import type { CatchUpSettings } from './sharedSettings';

/*
 * One chat's read by the Catch-Up poll, and the items it makes: the bursts the account did not
 * answer, and with Pass Answers on, the bursts holding an answer to a question of this n8n that
 * still waits. Such an answer was never delivered, or n8n stopped while a run offered it after
 * answering its delivery, so no retry comes (docs/answers-in-chat.md, Limits: S8-1): the answer's
 * item carries its offer as a delivered burst's does (the same route, answerRoute.ts), and the
 * run's first step claims it and offers it, or takes the unended offer over (answerReoffer.ts), by
 * the one rule of every run. An answer whose offer a run ended (the question refused it) is held
 * there and offered nowhere.
 */

const READ_BUDGET_MS = 20_000;

/** Why a caught-up burst holding an answer runs: its question still waited when the poll read the chat. */
const ANSWER_WAITING = 'answer to a Send and Wait question that still waited';

export interface ChatOutcome {
	/** Its items for the bot, and with Human Takeover on, for the people (takeoverOutput.ts). */
	items: INodeExecutionData[][];
	/** Bursts written after the window's start but older than the limit, left. */
	left: number;
	/** A possible answer is left undecided: the next poll reads the chat again, the floor below it. */
	readAgain: boolean;
}

const baseEnvelope = (conversationId: string): EventEnvelope => ({
	id: '',
	type: 'message.received',
	created_at: '',
	api_version: '',
	account_id: '',
	data: { conversation_id: conversationId },
});

/** A burst's stand-in event, as the trigger's Filters judge it. */
const burstEvent = (conversationId: string, burst: MissedBurst): EventEnvelope => ({
	...baseEnvelope(conversationId),
	data: { conversation_id: conversationId, message: burst.messages[0].message },
});

interface Found {
	burst: MissedBurst;
	answers?: FoundAnswers;
}

/** The answer bursts as the questions they may answer decide them. */
interface Decided {
	/** Those with an offer to make: a question of this n8n waits for one of their messages. */
	offered: Found[];
	/**
	 * Those whose probe or read back failed (n8n's own URL unreachable, say): neither offered nor
	 * run, as a delivery's would go back; the chat is read again at the next poll, its other items
	 * with it (R9b-8), until the poll gives up on them (probePatience.ts). The rest, and those given
	 * up on, answer nothing that waits, and are caught up as any message (R9b-2).
	 */
	undecided: MissedBurst[];
}

async function decided(
	context: PollContext,
	reader: ConversationReader,
	read: ConversationRead,
	bursts: readonly MissedBurst[],
	{ memory: poll, now }: Window,
): Promise<Decided> {
	const result: Decided = { offered: [], undecided: [] };
	const memory = poll?.failingProbes;
	const chat = read.conversationId;
	// Each burst asks as its delivery's run would: two offers to one question resume it once at most,
	// the node taking only the chat's first answer (its own read), and a newer answer is offered
	// even when the older one's offer ended (R9b-6).
	const failed: MissedBurst[] = [];
	for (const burst of bursts) {
		const answers = await findAnswers(context as RouteContext, reader, read, burst.messages);
		if (answers.failed) failed.push(burst);
		else if (answers.offers.length > 0) result.offered.push({ burst, answers });
	}
	if (failed.length === 0) {
		asked(memory, chat);
		return result;
	}
	const givenUp = givesUp(memory, chat, now);
	if (!givenUp.now) result.undecided.push(...failed);
	else if (givenUp.first)
		context.logger.warn(
			`Messaging Automation Catch-Up: could not ask whether a Send and Wait question waits for messages ${failed.flatMap((burst) => burst.messages.map((entry) => entry.id)).join(', ')} in conversation ${chat} at ${PROBE_GIVE_UP_POLLS} polls or more over ${PROBE_GIVE_UP_MS / 60_000} minutes or more (the ask's failures are logged above): they run as ordinary messages, and so do later replies of this chat whose ask fails, within Max Age. Make n8n's own webhook address (WEBHOOK_URL) reachable from the n8n server itself, or turn off Pass Answers to Send and Wait.`,
		);
	return result;
}

/** A found burst's item, its messages within Max Age (`recent`), saying why it was caught up. */
function itemOf(
	{ burst, answers }: Found,
	read: ConversationRead,
	settings: CatchUpSettings,
	window: Window,
	recent: (at: number) => boolean,
): CaughtUpItem {
	const trimmed = { ...burst, messages: burst.messages.filter((entry) => recent(entry.at)) };
	const reason = answers
		? ANSWER_WAITING
		: trimmed.messages[trimmed.messages.length - 1].at < window.activatedAt
			? WHILE_INACTIVE
			: NEVER_DELIVERED;
	const turn = {
		grouping: settings.grouping,
		historyCount: 0,
		takeover: settings.takeover,
		answers: settings.answers,
	};
	return caughtUpItem(
		baseEnvelope(read.conversationId),
		trimmed,
		read.timeline,
		{ turn },
		window.now,
		reason,
		answers ? { waitingQuestion: answers.waiting, answerOffers: answers.offers } : {},
	);
}

/**
 * The found bursts' items, the bot's and Paused Chats': a chat Human Takeover pauses goes to the
 * people, replies to a waiting question too, by the trigger's rule (R4-4, R9b-7).
 */
function outputsOf(
	found: readonly Found[],
	caughtOf: (found: Found) => CaughtUpItem,
	takeoverOn: boolean,
): INodeExecutionData[][] {
	const outputs: INodeExecutionData[][] = [[], []];
	for (const caught of found.map(caughtOf))
		takeoverWorkflowData(caught.item, takeoverOn, caught.takeover).forEach((list, output) =>
			outputs[output].push(...list),
		);
	return outputs;
}

/**
 * One chat's read: its unanswered bursts within the limit that the trigger's Filters pass, and its
 * bursts holding an answer to a waiting question, as each burst's outputs, and how many older ones
 * it leaves.
 */
export async function catchUpChat(
	context: PollContext,
	reader: ConversationReader,
	chat: ListedChat,
	settings: CatchUpSettings,
	window: Window,
): Promise<ChatOutcome> {
	const read = await reader.read(chat.conversationId, deadlineIn(READ_BUDGET_MS));
	const rules = settings.grouping;
	const catchUpWindow: CatchUpWindow = {
		maxAgeMs: Number.POSITIVE_INFINITY,
		since: window.since,
		now: window.now,
		// No delivery shows this chat's phone lag to a poll: a late upload still uploading can be
		// taken for a closed burst (named in conversations.md, The Catch-Up node).
		phoneLagMs: 0,
		complete: read.cursor === undefined || read.reads >= MAX_PAGES,
		answers: settings.answers,
	};
	const passes = (burst: MissedBurst) =>
		filterEvent(burstEvent(chat.conversationId, burst), settings.filters).pass;
	const recent = (at: number) => window.now - at <= settings.catchUpMs;
	const closedRecently = (burst: MissedBurst) =>
		recent(burst.messages[burst.messages.length - 1].at);
	// A possible answer that answers nothing waiting runs as any message, as the trigger runs it (R9b-2).
	const all = unansweredBursts(read.timeline, rules, { ...catchUpWindow, answers: false }).filter(
		passes,
	);
	const { offered, undecided } = await decided(
		context,
		reader,
		read,
		answerBursts(read.timeline, rules, catchUpWindow).filter(passes).filter(closedRecently),
		window,
	);
	// A burst with an answer to offer is that item's: its other messages run there once the offer ended.
	const taken = new Set(
		[...offered.map(({ burst }) => burst), ...undecided].flatMap((burst) =>
			burst.messages.map((entry) => entry.id),
		),
	);
	const within = all.filter(
		(burst) => closedRecently(burst) && !burst.messages.some((entry) => taken.has(entry.id)),
	);
	const items = outputsOf(
		[...offered, ...within.map((burst): Found => ({ burst }))],
		(found) => itemOf(found, read, settings, window, recent),
		settings.takeover !== undefined,
	);
	const left = window.firstOfActivation
		? all.filter((burst) => !closedRecently(burst) && burst.messages[0].at > window.listFloor)
				.length
		: 0;
	// Undecided, the chat's items wait whole for a poll that can ask: run now, they would run again then.
	if (undecided.length > 0) return { items: [[], []], left, readAgain: true };
	return { items, left, readAgain: false };
}
