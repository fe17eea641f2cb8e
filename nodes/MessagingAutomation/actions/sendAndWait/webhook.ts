import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { answerFromChat, replyClaim } from './chatReply';
import { isRecord } from '../../../shared/guards';
import { formFields } from './formFields';
import { browserOnlyPage, formAnswers, formPage, recordedPage, type FormField } from './pages';
import { isPreviewRequest } from './previewBots';
import type { ResponseType } from './question';
import { questionStatus } from './questionStatus';

/*
 * The person's answer arrives here through a signed link (n8n checked the signature). Approval
 * links resume on a browser's GET; a preview bot's GET, or any other request, changes nothing and
 * says so: open the link in a browser. Free text and forms are served as a page on GET and resume
 * on its POST. A reply in the chat, named by the trigger, is checked against the saved messages
 * (chatReply.ts).
 */

async function resume(
	context: IWebhookFunctions,
	data: IDataObject,
): Promise<IWebhookResponseData> {
	const query = context.getQueryData() as IDataObject;
	const idempotencyKey = typeof query.q === 'string' ? query.q : undefined;
	const { messageId } = await questionStatus(context, idempotencyKey);
	const json: IDataObject = { data: { ...data, respondedAt: new Date().toISOString() } };
	if (messageId) json.messageId = messageId;
	context.getResponseObject().setHeader('Content-Type', 'text/html; charset=utf-8');
	return { webhookResponse: recordedPage(), workflowData: [[{ json }]] };
}

/** Answers without resuming: the execution keeps waiting. */
function notAnAnswer(context: IWebhookFunctions, status = 200): IWebhookResponseData {
	context
		.getResponseObject()
		.status(status)
		.setHeader('Content-Type', 'text/html; charset=utf-8')
		.send(browserOnlyPage());
	return { noWebhookResponse: true };
}

function servePage(context: IWebhookFunctions, fields: FormField[]): IWebhookResponseData {
	const message = String(context.getNodeParameter('message', ''));
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const html = formPage({
		title: String(options.responseFormTitle || ''),
		description: String(options.responseFormDescription || message),
		buttonLabel: String(options.responseFormButtonLabel || 'Submit'),
		fields,
	});
	context
		.getResponseObject()
		.status(200)
		.setHeader('Content-Type', 'text/html; charset=utf-8')
		.send(html);
	return { noWebhookResponse: true };
}

export async function sendAndWaitWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const method = this.getRequestObject().method;
	const responseType = this.getNodeParameter('responseType', 'approval') as ResponseType;
	if (method !== 'GET' && method !== 'POST') return notAnAnswer(this, 405);
	const claim = replyClaim(this);
	if (claim) return await answerFromChat(this, claim);
	if (responseType === 'approval') {
		if (method !== 'GET' || isPreviewRequest(this.getHeaderData()['user-agent']))
			return notAnAnswer(this);
		const query = this.getQueryData() as IDataObject;
		return await resume(this, { approved: query.approved === 'true' });
	}
	const fields: FormField[] =
		responseType === 'freeText'
			? [{ label: 'Response', type: 'textarea', options: [], required: true }]
			: formFields(this.getNodeParameter('formFields.values', []));
	if (method === 'GET') return servePage(this, fields);
	const body: unknown = this.getBodyData();
	if (!isRecord(body)) return notAnAnswer(this);
	const answers = formAnswers(fields, body as IDataObject);
	return await resume(this, responseType === 'freeText' ? { text: answers.Response } : answers);
}
