/**
 * Pass Answers to Send and Wait, as n8n's waiting webhooks carry it: each question is an execution
 * waiting at its signed link; the trigger's offer (an HTTP POST to that link) reaches the real Send
 * and Wait node's webhook(), which looks the question up and reads the chat in the service model,
 * and n8n resumes the execution when the node hands back workflow data. Neither line passes a request
 * for a resumed execution to the node (409); of requests that reached the node before the resume,
 * n8n 2.x resumes with one and refuses the others (409), 1.x resumes with each.
 */
import type {
	IDataObject,
	IHttpRequestOptions,
	INodeType,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { ownUrlFailure, type OwnUrlFailed, type OwnUrlKind } from './ownUrl';
import { credentialFor, QUIET_LOGGER, type ServiceModel } from './service';
import { trace } from './trace';

export const WAITING_BASE = 'http://n8n.sim/webhook-waiting';

export interface Resume {
	execution: string;
	/** The answer message the node resumed it with. */
	messageId: string;
	at: number;
}

/** The Send and Wait node's parameters: approval with two buttons, answers in the chat on. */
const SEND_AND_WAIT: IDataObject = {
	resource: 'message',
	operation: 'sendAndWait',
	responseType: 'approval',
	answerInChat: true,
	approvalOptions: { values: { approvalType: 'double' } },
};

/** A question's link, as Send and Wait builds it: execution, node, the send's key, chat on, signed. */
export const questionLink = (execution: string, key: string) =>
	`${WAITING_BASE}/${execution}/node-sw?q=${key}&chat=1&signature=sig-${execution}`;

function parameter(name: string, fallback: unknown): unknown {
	let value: unknown = SEND_AND_WAIT;
	for (const part of name.split('.')) value = (value as IDataObject | undefined)?.[part];
	return value === undefined ? fallback : value;
}

interface Answer {
	statusCode: number;
	body: unknown;
}

export class WaitingExecutions {
	readonly resumes: Resume[] = [];
	/** Requests n8n's own URL failed (ownUrl.ts): none reached n8n. */
	readonly failures: OwnUrlFailed[] = [];
	private readonly resumed = new Set<string>();

	constructor(
		private readonly service: ServiceModel,
		private readonly n8nLine: 1 | 2,
		private readonly apiKey: string,
		private readonly now: () => number,
		/** How n8n's own URL fails now, if it does. */
		private readonly failing: () => OwnUrlKind | undefined = () => undefined,
	) {}

	/** The trigger's `helpers.httpRequest` to a link; rejects as axios does when `timeout` passes first. */
	async request(
		sendAndWait: INodeType,
		options: IHttpRequestOptions,
		by: OwnUrlFailed['by'] = 'trigger',
	): Promise<Answer> {
		const url = new URL(String(options.url));
		const execution = url.pathname.split('/')[2] ?? '';
		if (!url.href.startsWith(WAITING_BASE)) throw new Error(`no route to ${url.href}`);
		const failing = this.failing();
		if (failing) {
			const asked = (
				options.body as { chatAnswer?: { conversationId?: string; messageIds?: string[] } }
			)?.chatAnswer;
			this.failures.push({
				at: this.now(),
				execution,
				by,
				probe: (asked?.messageIds?.length ?? 0) === 0,
				conversationId: asked?.conversationId,
			});
			trace(() => `n8n's own URL fails (${failing}) ${by}'s request to ${execution}`);
			return await ownUrlFailure(failing, options.timeout);
		}
		// Either line first checks the execution still waits: once resumed it is running or finished
		// (n8n/dist/webhooks/waiting-webhooks.js, 1.123.81 and 2.40.7 alike).
		if (this.resumed.has(execution))
			return { statusCode: 409, body: { message: 'The execution is not waiting' } };
		trace(() => `offer to ${execution}: ${JSON.stringify(options.body)}`);
		const answering = this.offer(sendAndWait, execution, url, options.body);
		if (!options.timeout) return await answering;
		return await Promise.race([
			answering,
			new Promise<never>((_, reject) =>
				setTimeout(
					() =>
						reject(
							Object.assign(new Error(`timeout of ${options.timeout}ms exceeded`), {
								code: 'ECONNABORTED',
							}),
						),
					options.timeout,
				),
			),
		]);
	}

	private async offer(
		sendAndWait: INodeType,
		execution: string,
		url: URL,
		body: unknown,
	): Promise<Answer> {
		let status = 200;
		let sent: string | undefined;
		const response = {
			status(code: number) {
				status = code;
				return response;
			},
			setHeader: () => response,
			send(text: string) {
				sent = text;
				return response;
			},
		};
		const context = {
			getRequestObject: () => ({ method: 'POST' }),
			getBodyData: () => body,
			getQueryData: () => Object.fromEntries(url.searchParams),
			getHeaderData: () => ({}),
			getResponseObject: () => response,
			getNodeParameter: parameter,
			getNode: () => ({
				id: 'node-sw',
				name: 'Send and Wait',
				type: 'messagingAutomation',
				typeVersion: 1,
				parameters: SEND_AND_WAIT,
			}),
			getWorkflow: () => ({ id: `wf-${execution}`, name: 'Waiting', active: true }),
			getMode: () => 'webhook',
			logger: QUIET_LOGGER,
			getCredentials: async () => credentialFor(this.apiKey),
			helpers: {
				httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) =>
					await this.service.request(options),
			},
		} as unknown as IWebhookFunctions;
		const result: IWebhookResponseData = await (
			sendAndWait.webhook as (this: IWebhookFunctions) => Promise<IWebhookResponseData>
		).call(context);
		if (!result.workflowData)
			return {
				statusCode: status,
				body: sent === undefined ? undefined : (JSON.parse(sent) as unknown),
			};
		const data = (result.workflowData[0]?.[0]?.json.data ?? {}) as IDataObject;
		// n8n 2.x resumes an execution once, however many requests passed its first check at once
		// (its write of 'running' requires 'waiting'); 1.x writes it whatever it was (active-executions.js
		// add), so each request that passed the check while the node looked up and read resumes it.
		if (this.n8nLine === 2 && this.resumed.has(execution))
			return { statusCode: 409, body: { message: 'The execution is not waiting' } };
		trace(() => `RESUME ${execution} with ${String(data.answerMessageId)}`);
		this.resumed.add(execution);
		this.resumes.push({ execution, messageId: String(data.answerMessageId ?? ''), at: this.now() });
		return { statusCode: 200, body: result.webhookResponse };
	}
}
