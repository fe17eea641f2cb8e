import {
	NodeOperationError,
	WAIT_INDEFINITELY,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { MessagingApiError } from '../../../shared/client/errors';
import { toNodeError } from '../errors';
import { failedItem } from '../itemLoop';
import type { RunContext } from '../runContext';
import { guardedCall } from '../tool/guardedCall';
import { assertToolAvailable } from '../tool/toolAccess';
import { assertValidInput, toolSchema } from '../tool/toolSchema';
import { CHAT_PARAMETER, UNTIL_PARAMETER } from '../../../shared/conversation/questionLinks';
import { questionInput, templateRefusal } from './businessWindow';
import { chatAnswersOn, chatInstructions, type ParameterReader } from './chatAnswers';
import { formFields } from './formFields';
import { answerLinks, type ResponseType } from './question';
import { readRecipient, SEND_TOOL } from './recipient';
import { waitTill } from './waitLimit';

/*
 * Sends the question once (like every write: paced, retried with one idempotency key), then
 * puts the execution to wait. What this returns shows while the execution waits; n8n drops it
 * on resume.
 */

/** A key reused with different text: an earlier execution already asked for this event. */
function alreadyAsked(error: unknown): boolean {
	return (
		error instanceof MessagingApiError &&
		error.code === 'invalid_input' &&
		error.field === 'idempotencyKey'
	);
}

async function ask(context: IExecuteFunctions, run: RunContext): Promise<INodeExecutionData> {
	const responseType = context.getNodeParameter('responseType', 0, 'approval') as ResponseType;
	if (
		responseType === 'customForm' &&
		formFields(context.getNodeParameter('formFields.values', 0, [])).length === 0
	) {
		throw new NodeOperationError(context.getNode(), 'Add at least one field under Form Fields', {
			itemIndex: 0,
		});
	}
	await assertToolAvailable(context, run, SEND_TOOL);
	const recipient = readRecipient(context, 0);
	const tool = await toolSchema(run, SEND_TOOL);
	const idempotencyKey = run.keys.choose(context, 0);
	const until = waitTill(context);
	const read: ParameterReader = (name, fallback) => context.getNodeParameter(name, 0, fallback);
	const inChat = chatAnswersOn(read);
	// The key rides along in the links, so the answer can name the question's message; with
	// Answer in Chat the links also mark the question, and carry its wait limit, for the reply.
	const links = answerLinks(context, responseType, {
		q: idempotencyKey,
		...(inChat ? { [CHAT_PARAMETER]: '1' } : {}),
		...(inChat && until.getTime() !== WAIT_INDEFINITELY.getTime()
			? { [UNTIL_PARAMETER]: String(until.getTime()) }
			: {}),
	});
	const input = await questionInput(context, run, {
		recipient,
		links,
		instructions: inChat ? chatInstructions(read) : undefined,
		check: (candidate) => assertValidInput(tool, candidate, idempotencyKey),
	});
	const sent = await guardedCall(run, { tool, input, idempotencyKey }).catch((error: unknown) => {
		if (!alreadyAsked(error))
			throw templateRefusal(context, error, input) ?? toNodeError(context.getNode(), error, 0);
		throw new NodeOperationError(
			context.getNode(),
			'This question was already sent for this item by an earlier execution',
			{
				description: `Nothing was sent again (idempotency key ${idempotencyKey}). Answer the earlier message, or set Options › Idempotency Key to ask anew.`,
				itemIndex: 0,
			},
		);
	});
	const data = sent.data as IDataObject;
	const question = { messageId: data.message_id, idempotencyKey };
	await context.putExecutionToWait(until);
	// On resume n8n passes this node's input on (an answer replaces it, see webhook.ts): made the
	// timed-out result here, it is what the workflow gets when the wait limit ends the wait.
	const timedOut: IDataObject = { timedOut: true, respondedAt: null };
	if (responseType === 'approval') timedOut.approved = false;
	context.getExecuteData().data.main = [
		[{ json: { data: timedOut, ...question }, pairedItem: { item: 0 } }],
	];
	return { json: { data: { waiting: true }, ...question }, pairedItem: { item: 0 } };
}

/** One question per execution, for the first item, as n8n's own Send and Wait nodes do. */
export async function executeSendAndWait(
	context: IExecuteFunctions,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	try {
		return [await ask(context, run)];
	} catch (error) {
		return [failedItem(context, error, 0)];
	}
}
