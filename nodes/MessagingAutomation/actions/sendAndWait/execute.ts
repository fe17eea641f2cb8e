import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { MessagingApiError } from '../../../shared/client/errors';
import { errorJson, toNodeError } from '../errors';
import type { RunContext } from '../runContext';
import { callTool } from '../tool/callTool';
import { assertToolAvailable } from '../tool/toolAccess';
import { assertValidInput, toolSchema } from '../tool/toolSchema';
import { formFields } from './formFields';
import { answerLinks, questionText, type ResponseType } from './question';
import { readRecipient, SEND_TOOL } from './recipient';
import { waitTill } from './waitLimit';

/*
 * Sends the question once (like every write: paced, retried with one idempotency key), then
 * puts the execution to wait. What this returns shows while the execution waits; n8n drops it
 * on resume.
 */

/** Business sends free text only inside the 24-hour window: say so before sending anything. */
async function assertFreeFormAllowed(run: RunContext, recipient: IDataObject, context: IExecuteFunctions): Promise<void> {
	if (recipient.channel !== 'business') return;
	const { channel, phoneNumber, conversationId } = recipient;
	const { data } = await run.client.callTool<IDataObject>('check_recipient_send_options', { channel, phoneNumber, conversationId });
	if (data.needs_approved_template === true || data.free_form_allowed === false) {
		throw new NodeOperationError(context.getNode(), 'Business allows free text only within 24 hours of the customer\'s last message', {
			description:
				'This customer has not written within the last 24 hours, so the question cannot be sent as free text and nothing was sent. Send an approved template first (Message › Send, Message Type: Template) and ask once they reply, or ask over the QR channel.',
		});
	}
}

/** A key reused with different text: an earlier execution already asked for this event. */
function alreadyAsked(error: unknown): boolean {
	return error instanceof MessagingApiError && error.code === 'invalid_input' && error.field === 'idempotencyKey';
}

async function ask(context: IExecuteFunctions, run: RunContext): Promise<INodeExecutionData> {
	const responseType = context.getNodeParameter('responseType', 0, 'approval') as ResponseType;
	if (responseType === 'customForm' && formFields(context.getNodeParameter('formFields.values', 0, [])).length === 0) {
		throw new NodeOperationError(context.getNode(), 'Add at least one field under Form Fields', { itemIndex: 0 });
	}
	await assertToolAvailable(context, run, SEND_TOOL);
	const recipient = readRecipient(context, 0);
	const tool = await toolSchema(run, SEND_TOOL);
	const idempotencyKey = run.keys.choose(context, 0);
	// The key rides along in the links, so the answer can name the question's message.
	const links = answerLinks(context, responseType, { q: idempotencyKey });
	const input = { ...recipient, text: questionText(String(context.getNodeParameter('message', 0, '')), links) };
	assertValidInput(tool, input, idempotencyKey);
	await assertFreeFormAllowed(run, recipient, context);
	const sent = await callTool(run, { tool, input, idempotencyKey }).catch((error: unknown) => {
		if (!alreadyAsked(error)) throw toNodeError(context.getNode(), error, 0);
		throw new NodeOperationError(context.getNode(), 'This question was already sent for this item by an earlier execution', {
			description: `Nothing was sent again (idempotency key ${idempotencyKey}). Answer the earlier message, or set Options › Idempotency Key to ask anew.`,
			itemIndex: 0,
		});
	});
	const data = sent.data as IDataObject;
	const question = { messageId: data.message_id, idempotencyKey };
	await context.putExecutionToWait(waitTill(context));
	// On resume n8n passes this node's input on (an answer replaces it, see webhook.ts): made the
	// timed-out result here, it is what the workflow gets when the wait limit ends the wait.
	const timedOut: IDataObject = { timedOut: true, respondedAt: null };
	if (responseType === 'approval') timedOut.approved = false;
	context.getExecuteData().data.main = [[{ json: { data: timedOut, ...question }, pairedItem: { item: 0 } }]];
	return { json: { data: { waiting: true }, ...question }, pairedItem: { item: 0 } };
}

/** One question per execution, for the first item, as n8n's own Send and Wait nodes do. */
export async function executeSendAndWait(context: IExecuteFunctions, run: RunContext): Promise<INodeExecutionData[]> {
	try {
		return [await ask(context, run)];
	} catch (error) {
		if (!context.continueOnFail()) throw toNodeError(context.getNode(), error, 0);
		return [{ json: { error: errorJson(error) }, pairedItem: { item: 0 } }];
	}
}
