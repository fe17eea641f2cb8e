import type { IWebhookFunctions } from 'n8n-workflow';

import { candidateQuestions } from '../shared/conversation/answers';
import { mergeTimelines, toTimelineMessage } from '../shared/conversation/timeline';
import { isRecord } from '../shared/guards';
import { eventMessage, type EventEnvelope, type EventMessage } from '../shared/webhooks/events';
import { ConversationReader, reasonOf } from '../shared/conversation/reader';

/*
 * Pass Answers to Send and Wait: the account's incoming messages already reach this trigger, so
 * it is the route by which a reply reaches the waiting execution (no endpoint of its own, of the
 * account's ten). One read of the conversation names the questions the message may answer; the
 * message is offered to each in turn through the question's own signed link. The Send and Wait
 * node decides from the saved messages and says whether it was an answer; the first that takes
 * it ends the offer. The link is followed only because it sits in the account's own message with
 * the marks Send and Wait gives it, and what is posted names the message, nothing more.
 */

/** A busy service is waited out this long before the message runs as usual. */
const READ_PATIENCE_MS = 2000;
/** Each offer; n8n answers at once, the node after two look-ups. */
const OFFER_TIMEOUT_MS = 4000;
/** The delivery is answered after the offers: they stop in time for the service's 10 s. */
const OFFERS_WITHIN_MS = 6000;

async function offer(
	context: IWebhookFunctions,
	link: string,
	message: EventMessage,
): Promise<boolean> {
	try {
		const verdict: unknown = await context.helpers.httpRequest({
			method: 'POST',
			url: link,
			body: { chatAnswer: { messageId: message.id, conversationId: message.conversation_id } },
			json: true,
			timeout: OFFER_TIMEOUT_MS,
		});
		// Once the execution stopped waiting (answered, timed out), n8n shows its "no action
		// required" page or refuses with 404 or 409: no verdict, so not taken.
		return isRecord(verdict) && verdict.answered === true;
	} catch {
		return false;
	}
}

/** Whether the delivered message answered a waiting question, which then resumed. */
export async function passedAsAnswer(
	context: IWebhookFunctions,
	envelope: EventEnvelope,
): Promise<boolean> {
	const started = Date.now();
	const message = eventMessage(envelope);
	const own = message ? toTimelineMessage(message) : undefined;
	if (envelope.type !== 'message.received' || !message?.conversation_id || !own || own.fromMe)
		return false;
	let candidates;
	try {
		const reader = new ConversationReader(context, 0);
		const read = await reader.read(message.conversation_id, Date.now() + READ_PATIENCE_MS);
		candidates = candidateQuestions(mergeTimelines(read.timeline, [own]), own);
	} catch (error) {
		context.logger.warn(
			`Messaging Automation Trigger: message ${own.id} not checked for an answer to Send and Wait: ${reasonOf(error)}`,
		);
		return false;
	}
	for (const candidate of candidates) {
		if (Date.now() - started > OFFERS_WITHIN_MS) break;
		if (!(await offer(context, candidate.link, message))) continue;
		context.logger.info(
			`Messaging Automation Trigger: message ${own.id} answered the Send and Wait question ${candidate.questionId}`,
		);
		return true;
	}
	return false;
}
