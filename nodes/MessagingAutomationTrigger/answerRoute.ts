import type { IWebhookFunctions } from 'n8n-workflow';

import { candidateQuestion, QUESTION_PAGES } from '../shared/conversation/answers';
import {
	ANSWER_OFFER_TIMEOUT_MS,
	ANSWER_READ_PATIENCE_MS,
} from '../shared/conversation/deliveryTiming';
import { isOwnResumeLink } from '../shared/conversation/questionLinks';
import {
	reasonOf,
	type ConversationRead,
	type ConversationReader,
} from '../shared/conversation/reader';
import { mergeTimelines, type TimelineMessage } from '../shared/conversation/timeline';
import { isRecord } from '../shared/guards';
import { deadlineIn } from '../shared/monotonic';

/*
 * Pass Answers to Send and Wait: the account's incoming messages already reach this trigger, so
 * it is the route by which a reply reaches the waiting execution (no endpoint of its own, of the
 * account's ten). The turn's own read of the conversation (the one that groups, gives history and
 * the pause) names the one question each of its messages may answer (the quoted one, else the
 * newest); such a message is offered to it through the question's own signed link, and only when
 * that link is one this n8n builds. The Send and Wait node decides from the saved messages by the
 * same rule (answers.ts). What is posted names the message, nothing more.
 */

/** At most this many of a turn's messages are offered, newest first: an answer ends a burst, as a rule. */
const MAX_OFFERS = 3;

/** Questions whose foreign link was already logged, so a chat does not log it per message. */
const loggedForeign = new Set<string>();
const LOGGED_FOREIGN_MAX = 1000;

export interface TakenAnswers {
	/** The messages that answered a question, which resumed: they start no run. */
	answered: Set<string>;
	/** An offer failed (n8n unreachable at its own URL, a time-out, the node could not read). */
	failed: boolean;
}

/**
 * This n8n's waiting-webhook base, as Send and Wait's links start: `$execution.resumeUrl` is that
 * base followed by the execution id (a placeholder outside an execution).
 */
function waitingBase(context: IWebhookFunctions): string | undefined {
	try {
		const resumeUrl = context.evaluateExpression('{{ $execution.resumeUrl }}');
		if (typeof resumeUrl !== 'string') return undefined;
		const url = new URL(resumeUrl);
		url.search = '';
		url.pathname = url.pathname.replace(/\/[^/]*$/, '');
		return url.toString();
	} catch {
		return undefined;
	}
}

/** `taken`, or why the offer did not reach a verdict (`failed`); neither: the question did not take it. */
async function offer(
	context: IWebhookFunctions,
	link: string,
	message: TimelineMessage,
): Promise<{ taken: boolean; failed?: string }> {
	try {
		const response = (await context.helpers.httpRequest({
			method: 'POST',
			url: link,
			body: {
				chatAnswer: { messageId: message.id, conversationId: message.message.conversation_id },
			},
			json: true,
			timeout: ANSWER_OFFER_TIMEOUT_MS,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		})) as { statusCode?: number; body?: unknown };
		const status = response.statusCode ?? 0;
		const body = response.body;
		if (status >= 500) {
			const why = isRecord(body) && typeof body.unchecked === 'string' ? `: ${body.unchecked}` : '';
			return { taken: false, failed: `HTTP ${status}${why}` };
		}
		// Once the execution stopped waiting (answered, timed out), n8n shows its "no action
		// required" page or refuses with 404 or 409: no verdict, so not taken.
		return { taken: isRecord(body) && body.answered === true };
	} catch (error) {
		return { taken: false, failed: reasonOf(error) };
	}
}

function logForeign(context: IWebhookFunctions, questionId: string, base: string | undefined) {
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

/**
 * Offers the turn's messages that may answer a waiting question, newest first, until one is taken
 * (an unquoted reply answers only the newest question, which takes one answer). A read that fails
 * going further back for a quoted question leaves the messages to run as usual.
 */
export async function takeAnswers(
	context: IWebhookFunctions,
	reader: ConversationReader,
	read: ConversationRead,
	messages: readonly TimelineMessage[],
): Promise<TakenAnswers> {
	const taken: TakenAnswers = { answered: new Set(), failed: false };
	let timeline: TimelineMessage[];
	try {
		timeline = await withQuoted(reader, read, messages);
	} catch (error) {
		context.logger.warn(
			`Messaging Automation Trigger: a quoted Send and Wait question not looked up: ${reasonOf(error)}`,
		);
		return taken;
	}
	const offers = [...messages]
		.reverse()
		.map((message) => ({ message, question: candidateQuestion(timeline, message) }))
		.filter((entry) => entry.question !== undefined)
		.slice(0, MAX_OFFERS);
	const base = offers.length > 0 ? waitingBase(context) : undefined;
	for (const { message, question } of offers) {
		if (!question) continue;
		if (!base || !isOwnResumeLink(question.link, base)) {
			logForeign(context, question.questionId, base);
			continue;
		}
		const verdict = await offer(context, question.link, message);
		if (verdict.taken) {
			context.logger.info(
				`Messaging Automation Trigger: message ${message.id} answered the Send and Wait question ${question.questionId}`,
			);
			taken.answered.add(message.id);
			return taken;
		}
		if (verdict.failed !== undefined) {
			context.logger.warn(
				`Messaging Automation Trigger: message ${message.id} could not be offered to the Send and Wait question ${question.questionId} (${verdict.failed})`,
			);
			taken.failed = true;
		}
	}
	return taken;
}
