import type { IWebhookFunctions } from 'n8n-workflow';

import {
	answerOf,
	questionOf,
	type AnswerCheck,
	questionsInChat,
	QUESTION_PAGES,
	type QuestionCandidate,
} from '../../shared/conversation/answers';
import { ANSWER_READ_PATIENCE_MS } from '../../shared/conversation/deliveryTiming';
import { isOwnResumeLink, withoutLiveLinks } from '../../shared/conversation/questionLinks';
import {
	reasonOf,
	type ConversationRead,
	type ConversationReader,
} from '../../shared/conversation/reader';
import { mergeTimelines, type TimelineMessage } from '../../shared/conversation/timeline';
import { deadlineIn, monotonicNow } from '../../shared/monotonic';
import { probe, type Probe, type Requester } from './answerOffers';
import { answerBeforeTurn, type EarlierAnswer } from './earlierAnswer';

/*
 * Pass Answers to Send and Wait: the account's incoming messages already reach this trigger, so
 * it is the route by which a reply reaches the waiting execution (no endpoint of its own, of the
 * account's ten). The turn's own read of the conversation (the one that groups, gives history and
 * the pause) names the one question each of its messages can answer (questionOf, the rule the
 * Send and Wait node applies too). Each such question is probed through its own signed link, and
 * only when that link is one this n8n builds: a waiting question gives its rules, and the messages
 * that answer it by them (answerOf, again the node's own function) become the run's answer offers.
 * The run's first step offers them (answerPass.ts), once it has claimed their messages in the store
 * every n8n process shares: a message is offered by one run only, and runs in none once taken. A
 * message that answers nothing costs no look-up.
 */

/** Questions whose foreign link was already logged, so a chat does not log it per message. */
const loggedForeign = new Set<string>();
const LOGGED_FOREIGN_MAX = 1000;
/** At most this many of the chat's questions are probed for the one still waiting. */
const WAITING_PROBES = 3;

/** A question of this n8n still waiting in the chat, as the run's item names it. */
export interface WaitingQuestion {
	message_id: string;
	text: string;
	how_to_answer: string;
}

/** Messages that answer a waiting question by its rules, as the run's first step offers them. */
export interface AnswerOffer {
	question_id: string;
	/** The question's own signed link (this n8n's). */
	link: string;
	/** In written order: the node resumes with the first it accepts. */
	message_ids: string[];
	/** Of `message_ids`, the one written before the turn, offered again: no message of the run's item. */
	earlier?: EarlierAnswer[];
}

export interface FoundAnswers {
	offers: AnswerOffer[];
	/** A read or a probe failed (n8n unreachable at its own URL, a time-out): the delivery goes back. */
	failed: boolean;
	/** The newest question still waiting in the chat after the turn's answers; null: none. */
	waiting: WaitingQuestion | null;
}

const HOW_TO_ANSWER =
	'Reply to the question’s message (quote it) with your answer: a reply that does not quote it answers it only while it is the account’s last message.';

/**
 * What the route asks of n8n: a delivery's webhook, or the Catch-Up poll. n8n's poll context
 * evaluates expressions too (n8n-core's NodeExecutionContext, 1.123 to 2.41), though its type does
 * not say so; without it no link is known to be this n8n's, and nothing is requested.
 */
export type RouteContext = Requester &
	Pick<IWebhookFunctions, 'logger'> &
	Partial<Pick<IWebhookFunctions, 'evaluateExpression'>>;

/**
 * This n8n's waiting-webhook base, as Send and Wait's links start: `$execution.resumeUrl` is that
 * base followed by the execution id (a placeholder outside an execution).
 */
function waitingBase(context: RouteContext): string | undefined {
	try {
		const resumeUrl = context.evaluateExpression?.('{{ $execution.resumeUrl }}');
		if (typeof resumeUrl !== 'string') return undefined;
		const url = new URL(resumeUrl);
		url.search = '';
		url.pathname = url.pathname.replace(/\/[^/]*$/, '');
		return url.toString();
	} catch {
		return undefined;
	}
}

function logForeign(context: RouteContext, questionId: string, base: string | undefined) {
	if (loggedForeign.has(questionId)) return;
	if (loggedForeign.size >= LOGGED_FOREIGN_MAX) loggedForeign.clear();
	loggedForeign.add(questionId);
	context.logger.warn(
		base
			? `Messaging Automation Trigger: message ${questionId} holds an answer link that does not start with this n8n's waiting-webhook URL ${base}: replies to it are not passed on (a link n8n did not build is never requested)`
			: `Messaging Automation Trigger: this n8n's waiting-webhook URL is unknown here, so no reply is passed to Send and Wait`,
	);
}

/** The read, older pages added until every quoted message is in it (a quoted question may be far back). */
async function withQuoted(
	reader: ConversationReader,
	read: ConversationRead,
	messages: readonly TimelineMessage[],
): Promise<TimelineMessage[]> {
	const own = { ...read, timeline: [...read.timeline] };
	const until = deadlineIn(ANSWER_READ_PATIENCE_MS);
	for (const { message } of messages)
		if (message.quoted_message_id)
			await reader.readBackTo(own, message.quoted_message_id, until, QUESTION_PAGES);
	return mergeTimelines(own.timeline, messages);
}

/** The turn's messages by the question each can answer, questions of this n8n only. */
function byQuestion(
	context: RouteContext,
	timeline: readonly TimelineMessage[],
	messages: readonly TimelineMessage[],
	base: string | undefined,
): Map<string, { question: QuestionCandidate; messages: TimelineMessage[] }> {
	const groups = new Map<string, { question: QuestionCandidate; messages: TimelineMessage[] }>();
	for (const message of messages) {
		const question = questionOf(timeline, message);
		if (!question) continue;
		if (!base || !isOwnResumeLink(question.link, base)) {
			logForeign(context, question.questionId, base);
			continue;
		}
		const group = groups.get(question.questionId) ?? { question, messages: [] };
		group.messages.push(message);
		groups.set(question.questionId, group);
	}
	return groups;
}

interface Route {
	context: RouteContext;
	timeline: TimelineMessage[];
	/** The turn's messages. */
	turn: ReadonlySet<string>;
	conversationId: string;
	found: FoundAnswers;
	probes: Map<string, Probe>;
	/** Monotonic time by which a delivery's asks end (ASKED_BY_MS); none for the Catch-Up poll. */
	askBy?: number;
}

/** The question's probe, made once per turn. */
async function probed(route: Route, question: QuestionCandidate): Promise<Probe> {
	const known = route.probes.get(question.questionId);
	if (known) return known;
	const timeoutMs = route.askBy === undefined ? undefined : route.askBy - monotonicNow();
	const result = await probe(route.context, question.link, route.conversationId, timeoutMs);
	route.probes.set(question.questionId, result);
	return result;
}

/** The question's answer written before the turn that the run offers again (earlierAnswer.ts). */
const earlierAnswer = (route: Route, question: QuestionCandidate, rules: AnswerCheck) =>
	answerBeforeTurn(
		route.timeline,
		route.turn,
		(id) => answerOf(route.timeline, question.questionId, id, rules) !== undefined,
	);

/** An offer of `messageIds` to the question: in the common case it is taken, so it waits no more. */
function offered(
	route: Route,
	question: QuestionCandidate,
	messageIds: string[],
	earlier?: EarlierAnswer,
): void {
	route.found.offers.push({
		question_id: question.questionId,
		link: question.link,
		message_ids: earlier ? [...messageIds, String(earlier.message.id)] : messageIds,
		...(earlier ? { earlier: [earlier] } : {}),
	});
	// Offered, it is taken in the common case: the run's item names an older one as waiting.
	route.probes.set(question.questionId, { waiting: false });
}

/** The messages that answer the question by its rules, if it waits: one offer. */
async function answer(route: Route, question: QuestionCandidate, messages: TimelineMessage[]) {
	const { context, found } = route;
	const status = await probed(route, question);
	if (!status.waiting) {
		if (status.failed === undefined) return;
		context.logger.warn(
			`Messaging Automation Trigger: messages ${messages.map((entry) => entry.id).join(', ')} could not be offered to the Send and Wait question ${question.questionId} (${status.failed})`,
		);
		found.failed = true;
		return;
	}
	const rules = status.rules;
	if (!rules) return;
	const answers = messages
		.filter(
			(message) => answerOf(route.timeline, question.questionId, message.id, rules) !== undefined,
		)
		.map((entry) => entry.id);
	const earlier = answers.length === 0 ? earlierAnswer(route, question, rules) : undefined;
	if (answers.length > 0 || earlier) offered(route, question, answers, earlier);
}

/** The newest question of this n8n still waiting in the chat, that takes answers in it. */
async function stillWaiting(
	route: Route,
	base: string | undefined,
): Promise<WaitingQuestion | null> {
	const own = questionsInChat(route.timeline)
		.filter((question) => base !== undefined && isOwnResumeLink(question.link, base))
		.slice(0, WAITING_PROBES);
	for (const question of own) {
		const status = await probed(route, question);
		if (!status.waiting || !status.rules) continue;
		const earlier = earlierAnswer(route, question, status.rules);
		if (earlier !== undefined) {
			offered(route, question, [], earlier);
			continue;
		}
		const entry = route.timeline.find((message) => message.id === question.questionId);
		return {
			message_id: question.questionId,
			text: withoutLiveLinks(String(entry?.message.text ?? '')),
			how_to_answer: HOW_TO_ANSWER,
		};
	}
	return null;
}

/**
 * The turn's messages that answer waiting questions, one offer per question, for the run's first
 * step to make. A read that fails going further back for a quoted question, or a probe that fails,
 * fails the turn's answers (`failed`): the delivery goes back rather than run a possible answer as
 * a message.
 */
export async function findAnswers(
	context: RouteContext,
	reader: ConversationReader,
	read: ConversationRead,
	messages: readonly TimelineMessage[],
	/** A delivery's: monotonic time by which its asks end. */
	askBy?: number,
): Promise<FoundAnswers> {
	const found: FoundAnswers = { offers: [], failed: false, waiting: null };
	let timeline: TimelineMessage[];
	try {
		timeline = await withQuoted(reader, read, messages);
	} catch (error) {
		context.logger.warn(
			`Messaging Automation Trigger: a quoted Send and Wait question not looked up: ${reasonOf(error)}`,
		);
		return { ...found, failed: true };
	}
	if (questionsInChat(timeline).length === 0) return found;
	const base = waitingBase(context);
	const route: Route = {
		context,
		timeline,
		conversationId: read.conversationId,
		turn: new Set(messages.map((message) => message.id)),
		found,
		probes: new Map(),
		...(askBy === undefined ? {} : { askBy }),
	};
	const groups = [...byQuestion(context, timeline, messages, base).values()];
	await Promise.all(
		groups.map(async (group) => await answer(route, group.question, group.messages)),
	);
	// Each offer takes one message at most: the others run.
	if (found.offers.length < messages.length) found.waiting = await stillWaiting(route, base);
	return found;
}
