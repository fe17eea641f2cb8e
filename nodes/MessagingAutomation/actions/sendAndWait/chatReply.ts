import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { answerOf, QUESTION_PAGES, type ChatAnswer } from '../../../shared/conversation/answers';
import { ANSWER_DECISION_MS } from '../../../shared/conversation/deliveryTiming';
import { UNTIL_PARAMETER } from '../../../shared/conversation/questionLinks';
import type { TimelineMessage } from '../../../shared/conversation/timeline';
import { isRecord } from '../../../shared/guards';
import { ConversationReader, reasonOf } from '../../../shared/conversation/reader';
import { answerCheck, chatAnswersOn, type ParameterReader } from './chatAnswers';
import { claimAnswer } from './answerClaims';
import { questionStatus } from './questionStatus';
import { deadlineIn, monotonicNow } from '../../../shared/monotonic';

/*
 * Replies in the chat, named by a Messaging Automation Trigger that saw them. The request is signed
 * (n8n checked the link), yet its body is only a hint: the saved messages decide. A request naming
 * no message asks only whether the question waits and by which rules it takes answers, so the
 * trigger offers only messages that answer by them (nothing is read for that). A request naming
 * messages has the question looked up by the key in the link and the conversation read, and only
 * the first of them the rules accept resumes the execution; anything else leaves it waiting.
 */

export interface ReplyClaim {
	/** The messages the trigger found answering this question by its rules, in written order; empty: a probe. */
	messageIds: string[];
	conversationId?: string;
}

const ids = (value: unknown): string[] =>
	Array.isArray(value)
		? value.filter((id): id is string => typeof id === 'string' && id !== '')
		: typeof value === 'string' && value !== ''
			? [value]
			: [];

/** What the trigger posts: `{ chatAnswer: { messageIds, conversationId } }`; undefined for anything else. */
export function replyClaim(context: IWebhookFunctions): ReplyClaim | undefined {
	if (context.getRequestObject().method !== 'POST') return undefined;
	// n8n 2.41 leaves the body unparsed (undefined) when a POST names no parsable content type.
	const body: unknown = context.getBodyData();
	const claim = isRecord(body) ? body.chatAnswer : undefined;
	if (!isRecord(claim)) return undefined;
	const messageIds = [...ids(claim.messageIds), ...ids(claim.messageId)];
	if (messageIds.length === 0 && claim.messageIds === undefined) return undefined;
	return {
		messageIds,
		conversationId: typeof claim.conversationId === 'string' ? claim.conversationId : undefined,
	};
}

/** The first page reaches this far back, the service's largest. */
const FIRST_PAGE = 90;

/** The conversation, read back until the question is in it (or as far as the trigger reads). */
async function timelineWith(
	context: IWebhookFunctions,
	conversationId: string,
	questionId: string,
	until: number,
): Promise<TimelineMessage[]> {
	const reader = new ConversationReader(context, FIRST_PAGE);
	const read = await reader.read(conversationId, until);
	await reader.readBackTo(read, questionId, until, QUESTION_PAGES);
	return read.timeline;
}

function respond(context: IWebhookFunctions, status: number, body: IDataObject) {
	context
		.getResponseObject()
		.status(status)
		.setHeader('Content-Type', 'application/json')
		.send(JSON.stringify(body));
	return { noWebhookResponse: true };
}

/**
 * The replies could not be checked in time (the service did not answer): 503, so the trigger hands
 * the delivery back to the service's retry instead of passing a possible answer on to the workflow.
 */
function unchecked(context: IWebhookFunctions, claim: ReplyClaim, reason: string) {
	context.logger.warn(
		`Send and Wait: replies ${claim.messageIds.join(', ')} not checked: ${reason}`,
	);
	return respond(context, 503, { answered: false, unchecked: reason });
}

function resumed(questionId: string, answer: ChatAnswer): IWebhookResponseData {
	const data: IDataObject = {
		respondedAt: answer.at,
		answeredIn: 'chat',
		answerMessageId: answer.messageId,
		from: answer.from ?? null,
	};
	if (answer.approved !== undefined) data.approved = answer.approved;
	else data.text = answer.text;
	return {
		webhookResponse: { answered: true, messageId: answer.messageId },
		workflowData: [[{ json: { data, messageId: questionId } }]],
	};
}

export async function answerFromChat(
	context: IWebhookFunctions,
	claim: ReplyClaim,
): Promise<IWebhookResponseData> {
	const started = monotonicNow();
	const read: ParameterReader = (name, fallback) => context.getNodeParameter(name, fallback);
	const query = context.getQueryData() as IDataObject;
	const until = Number(query[UNTIL_PARAMETER]);
	const check = answerCheck(read, Number.isFinite(until) ? until : undefined);
	const inChat = chatAnswersOn(read);
	if (claim.messageIds.length === 0)
		return respond(context, 200, { answered: false, waiting: true, rules: inChat ? check : null });
	if (!inChat) return respond(context, 200, { answered: false });
	const left = () => ANSWER_DECISION_MS - (monotonicNow() - started);
	const question = await questionStatus(
		context,
		typeof query.q === 'string' ? query.q : undefined,
		left(),
	);
	if (question.failed)
		return unchecked(context, claim, `its question could not be looked up: ${question.failed}`);
	const conversationId = question.conversationId ?? claim.conversationId;
	if (!question.messageId || !conversationId) return respond(context, 200, { answered: false });
	let timeline: TimelineMessage[];
	try {
		timeline = await timelineWith(context, conversationId, question.messageId, deadlineIn(left()));
	} catch (error) {
		return unchecked(context, claim, `the conversation could not be read: ${reasonOf(error)}`);
	}
	const answers = claim.messageIds.map((id) =>
		answerOf(timeline, question.messageId ?? '', id, check),
	);
	const answer = answers.find((entry) => entry !== undefined);
	if (!answer) return respond(context, 200, { answered: false });
	if (left() <= 0)
		return unchecked(context, claim, `not decided within ${ANSWER_DECISION_MS / 1000} s`);
	const claimed = claimAnswer(question.messageId, answer.messageId);
	// A copy of an offer already taken: the message was the answer, so it runs no bot; the execution
	// resumes once.
	if (claimed === 'copy')
		return respond(context, 200, { answered: true, messageId: answer.messageId });
	if (claimed === 'other') return respond(context, 200, { answered: false });
	context.getResponseObject().setHeader('Content-Type', 'application/json');
	return resumed(question.messageId, answer);
}
