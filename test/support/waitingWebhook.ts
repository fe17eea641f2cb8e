/**
 * Calls an action node's `webhook()` the way n8n's waiting webhooks do when a resume link is
 * requested: n8n-core's own `WebhookContext` over a real `Workflow`, the link's query and the
 * request's body as n8n's parsers leave them. n8n checks the link's signature before the node runs
 * (not reproduced here; the e2e tests run it in real n8n); what the node decides is what is tested.
 */
import { WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	IWebhookFunctions,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { createAdditionalData, type N8nEngine } from './n8nEngine';

export interface WaitingRequest {
	method: 'GET' | 'POST';
	/** The resume link, query and all. */
	url: string;
	body?: IDataObject;
	headers?: Record<string, string>;
}

export interface WaitingAnswer {
	result: IWebhookResponseData;
	/** What the node wrote itself, when it answered (noWebhookResponse). */
	status?: number;
	body?: string;
	headers: Record<string, string>;
}

/** Stands in for express's response: what the node writes is kept. */
function recordingResponse(answer: WaitingAnswer) {
	const response = {
		status(code: number) {
			answer.status = code;
			return response;
		},
		setHeader(name: string, value: string) {
			answer.headers[name.toLowerCase()] = value;
			return response;
		},
		send(body: string) {
			answer.body = body;
			answer.status ??= 200;
			return response;
		},
	};
	return response;
}

export async function callWaitingWebhook(
	engine: N8nEngine,
	node: INode,
	request: WaitingRequest,
): Promise<WaitingAnswer> {
	const workflow = engine.workflow({ nodes: [node], connections: {} });
	const url = new URL(request.url);
	const answer: WaitingAnswer = { result: {}, headers: {} };
	const additionalData: IWorkflowExecuteAdditionalData = createAdditionalData(
		engine.credentialsHelper,
		{
			httpRequest: {
				method: request.method,
				query: Object.fromEntries(url.searchParams),
				// n8n 2.41 leaves an unparsable body undefined: a request may say so.
				body: 'body' in request ? request.body : {},
				headers: request.headers ?? {},
			} as unknown as IWorkflowExecuteAdditionalData['httpRequest'],
			httpResponse: recordingResponse(
				answer,
			) as unknown as IWorkflowExecuteAdditionalData['httpResponse'],
		},
	);
	const nodeType = engine.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const webhookDescription = nodeType.description.webhooks?.find(
		(webhook) => webhook.httpMethod === request.method,
	);
	if (!webhookDescription) throw new Error(`${node.type} has no ${request.method} webhook`);
	const context = new WebhookContext(
		workflow,
		node,
		additionalData,
		'webhook',
		{
			httpMethod: request.method,
			node: node.name,
			path: url.pathname,
			webhookDescription,
			workflowId: 'wf-test',
			workflowExecuteAdditionalData: additionalData,
		},
		[],
		null,
	);
	answer.result = await (
		nodeType.webhook as (this: IWebhookFunctions) => Promise<IWebhookResponseData>
	).call(context);
	return answer;
}
