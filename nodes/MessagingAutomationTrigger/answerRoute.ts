import type { IWebhookFunctions } from 'n8n-workflow';

import { candidateQuestion, QUESTION_PAGES } from '../shared/conversation/answers';
import {
	ANSWER_OFFER_TIMEOUT_MS,
	ANSWER_READ_PATIENCE_MS,
	GIVE_UP_AFTER_MS,
} from '../shared/conversation/deliveryTiming';
import { isOwnResumeLink } from '../shared/conversation/questionLinks';
import { mergeTimelines, toTimelineMessage } from '../shared/conversation/timeline';
import { isRecord } from '../shared/guards';
import { eventMessage, type EventEnvelope, type EventMessage } from '../shared/webhooks/events';
import { ConversationReader, reasonOf } from '../shared/conversation/reader';

/*
 * Pass Answers to Send and Wait: the account's incoming messages already reach this trigger, so
 * it is the route by which a reply reaches the waiting execution (no endpoint of its own, of the
 * account's ten). One read of the conversation names the one question the message may answer (the
 * quoted one, else the newest); the message is offered to it through the question's own signed
 * link, and only when that link is one this n8n builds. The Send and Wait node decides from the
 * saved messages by the same rule (answers.ts) and says whether it was an answer. What is posted
 * names the message, nothing more.
 */

/** What became of a message offered as an answer. */
export type AnswerOutcome = 'answered' | 'notAnswer' | 'handBack';

/** Questions whose foreign link was already logged, so a chat does not log it per message. */
const loggedForeign = new Set<string>();
const LOGGED_FOREIGN_MAX = 1000;

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
	message: EventMessage,
): Promise<{ taken: boolean; failed?: string }> {
	try {
		const response = (await context.helpers.httpRequest({
			method: 'POST',
			url: link,
			body: { chatAnswer: { messageId: message.id, conversationId: message.conversation_id } },
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

/** Whether the delivered message answered a waiting question, which then resumed. */
export async function passedAsAnswer(
	context: IWebhookFunctions,
	envelope: EventEnvelope,
	sentAt = Date.now(),
): Promise<AnswerOutcome> {
	const message = eventMessage(envelope);
	const own = message ? toTimelineMessage(message) : undefined;
	if (envelope.type !== 'message.received' || !message?.conversation_id || !own || own.fromMe)
		return 'notAnswer';
	let candidate;
	try {
		const reader = new ConversationReader(context, 0);
		const until = Date.now() + ANSWER_READ_PATIENCE_MS;
		const read = await reader.read(message.conversation_id, until);
		const quoted = message.quoted_message_id;
		if (quoted) await reader.readBackTo(read, quoted, until, QUESTION_PAGES);
		candidate = candidateQuestion(mergeTimelines(read.timeline, [own]), own);
	} catch (error) {
		context.logger.warn(
			`Messaging Automation Trigger: message ${own.id} not checked for an answer to Send and Wait: ${reasonOf(error)}`,
		);
		return 'notAnswer';
	}
	if (!candidate) return 'notAnswer';
	const base = waitingBase(context);
	if (!base || !isOwnResumeLink(candidate.link, base)) {
		logForeign(context, candidate.questionId, base);
		return 'notAnswer';
	}
	const verdict = await offer(context, candidate.link, message);
	if (verdict.taken) {
		context.logger.info(
			`Messaging Automation Trigger: message ${own.id} answered the Send and Wait question ${candidate.questionId}`,
		);
		return 'answered';
	}
	if (verdict.failed === undefined) return 'notAnswer';
	// A failed offer goes back to the service's retry, like an unsettled held delivery, until the
	// delivery comes as late as its third attempt: then the message runs, lost neither way.
	const handBack = sentAt - own.at < GIVE_UP_AFTER_MS;
	context.logger.warn(
		`Messaging Automation Trigger: message ${own.id} could not be offered to the Send and Wait question ${candidate.questionId} (${verdict.failed}); ${handBack ? 'the delivery goes back to the service, which sends it again' : 'it runs as a message, the question can still be answered by its links'}`,
	);
	return handBack ? 'handBack' : 'notAnswer';
}
