import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { answerOf, QUESTION_PAGES } from '../../../shared/conversation/answers';
import { UNTIL_PARAMETER } from '../../../shared/conversation/questionLinks';
import type { TimelineMessage } from '../../../shared/conversation/timeline';
import { isRecord } from '../../../shared/guards';
import { ConversationReader, reasonOf } from '../../../shared/conversation/reader';
import { answerCheck, chatAnswersOn, type ParameterReader } from './chatAnswers';
import { questionStatus } from './questionStatus';
import { deadlineIn } from '../../../shared/monotonic';

/*
 * A reply in the chat, named by a Messaging Automation Trigger that saw it. The request is signed
 * (n8n checked the link), yet its body is only a hint: the saved messages decide. The question is
 * looked up by the key in the link, the reply read from the conversation, and only a reply the
 * rules accept resumes the execution; anything else leaves it waiting.
 */

export interface ReplyClaim {
	messageId: string;
	conversationId?: string;
}

/** What the trigger posts: `{ chatAnswer: { messageId, conversationId } }`; undefined for anything else. */
export function replyClaim(context: IWebhookFunctions): ReplyClaim | undefined {
	if (context.getRequestObject().method !== 'POST') return undefined;
	// n8n 2.41 leaves the body unparsed (undefined) when a POST names no parsable content type.
	const body: unknown = context.getBodyData();
	const claim = isRecord(body) ? body.chatAnswer : undefined;
	if (!isRecord(claim) || typeof claim.messageId !== 'string' || claim.messageId === '')
		return undefined;
	return {
		messageId: claim.messageId,
		conversationId: typeof claim.conversationId === 'string' ? claim.conversationId : undefined,
	};
}

/** Patience with a busy service while the trigger waits for the verdict. */
const READ_PATIENCE_MS = 3000;
/** The first page reaches this far back, the service's largest. */
const FIRST_PAGE = 90;

/** The conversation, read back until the question is in it (or as far as the trigger reads). */
async function timelineWith(
	context: IWebhookFunctions,
	conversationId: string,
	questionId: string,
): Promise<TimelineMessage[]> {
	const reader = new ConversationReader(context, FIRST_PAGE);
	const until = deadlineIn(READ_PATIENCE_MS);
	const read = await reader.read(conversationId, until);
	await reader.readBackTo(read, questionId, until, QUESTION_PAGES);
	return read.timeline;
}

function verdict(context: IWebhookFunctions, answered: boolean): IWebhookResponseData {
	context
		.getResponseObject()
		.status(200)
		.setHeader('Content-Type', 'application/json')
		.send(JSON.stringify({ answered }));
	return { noWebhookResponse: true };
}

/**
 * The reply could not be checked (the service did not answer): 503, so the trigger hands the
 * delivery back to the service's retry instead of passing a possible answer on to the workflow.
 */
function unchecked(context: IWebhookFunctions, claim: ReplyClaim, reason: string) {
	context.logger.warn(`Send and Wait: reply ${claim.messageId} not checked: ${reason}`);
	context
		.getResponseObject()
		.status(503)
		.setHeader('Content-Type', 'application/json')
		.send(JSON.stringify({ answered: false, unchecked: reason }));
	return { noWebhookResponse: true };
}

export async function answerFromChat(
	context: IWebhookFunctions,
	claim: ReplyClaim,
): Promise<IWebhookResponseData> {
	const read: ParameterReader = (name, fallback) => context.getNodeParameter(name, fallback);
	if (!chatAnswersOn(read)) return verdict(context, false);
	const query = context.getQueryData() as IDataObject;
	const question = await questionStatus(context, typeof query.q === 'string' ? query.q : undefined);
	if (question.failed)
		return unchecked(context, claim, `its question could not be looked up: ${question.failed}`);
	const conversationId = question.conversationId ?? claim.conversationId;
	if (!question.messageId || !conversationId) return verdict(context, false);
	const until = Number(query[UNTIL_PARAMETER]);
	const check = answerCheck(read, Number.isFinite(until) ? until : undefined);
	let timeline: TimelineMessage[];
	try {
		timeline = await timelineWith(context, conversationId, question.messageId);
	} catch (error) {
		return unchecked(context, claim, `the conversation could not be read: ${reasonOf(error)}`);
	}
	const answer = answerOf(timeline, question.messageId, claim.messageId, check);
	if (!answer) return verdict(context, false);
	const data: IDataObject = {
		respondedAt: answer.at,
		answeredIn: 'chat',
		answerMessageId: answer.messageId,
		from: answer.from ?? null,
	};
	if (answer.approved !== undefined) data.approved = answer.approved;
	else data.text = answer.text;
	context.getResponseObject().setHeader('Content-Type', 'application/json');
	return {
		webhookResponse: { answered: true },
		workflowData: [[{ json: { data, messageId: question.messageId } }]],
	};
}
