import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OpenAI-compatible model on 127.0.0.1 that follows a script instead of thinking, for n8n's
 * OpenAI Chat Model node: Chat Completions (`POST /v1/chat/completions`) and the Responses API
 * (`POST /v1/responses`). For each request it reads the user's prompt, the chat turns before it (an
 * Agent's memory) and how many tool results the conversation already holds, asks `plan` for the
 * calls of the prompt, and answers with the next one (or with a final text once all were made).
 * Every request is recorded as received.
 */

export type Api = 'chat' | 'responses';

/** A chat turn before the prompt. */
export interface Turn {
	role: 'user' | 'assistant';
	text: string;
}

export interface ModelRequest {
	api: Api;
	body: Record<string, any>;
	/** The tool results the agent sent back so far, as text, in order. */
	toolResults: string[];
	prompt: string;
	/** The user's and assistant's turns before the prompt, oldest first. */
	earlier: Turn[];
}

/** The arguments of the calls to make for `prompt` (after the turns `earlier`) on `api`, in order. */
export type Plan = (prompt: string, api: Api, earlier: Turn[]) => Array<Record<string, unknown>>;

export interface ScriptedModel {
	/** Base URL for n8n's OpenAI credential (`…/v1`). */
	url: string;
	requests: ModelRequest[];
	stop(): Promise<void>;
}

function textOf(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content))
		return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
	return '';
}

/** The last user turn of the chat, and the user's and assistant's turns before it. */
function promptAndEarlier(items: any[]): { prompt: string; earlier: Turn[] } {
	const last = items.map((item) => item.role).lastIndexOf('user');
	return {
		prompt: textOf(items[last]?.content),
		earlier: items
			.slice(0, Math.max(last, 0))
			.filter((item) => item.role === 'user' || item.role === 'assistant')
			.map((item) => ({ role: item.role, text: textOf(item.content) })),
	};
}

/** Prompt, earlier turns and tool results, from either API's request body. */
function conversation(
	api: Api,
	body: Record<string, any>,
): { prompt: string; earlier: Turn[]; toolResults: string[] } {
	if (api === 'chat') {
		const messages: any[] = body.messages ?? [];
		return {
			...promptAndEarlier(messages),
			toolResults: messages
				.filter((message) => message.role === 'tool')
				.map((message) => textOf(message.content)),
		};
	}
	const input: any[] = Array.isArray(body.input)
		? body.input
		: [{ role: 'user', content: body.input }];
	return {
		...promptAndEarlier(input),
		toolResults: input
			.filter((item) => item.type === 'function_call_output')
			.map((item) => textOf(item.output)),
	};
}

function toolNameOf(api: Api, body: Record<string, any>): string {
	const [tool] = body.tools ?? [];
	return api === 'chat' ? tool?.function?.name : tool?.name;
}

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function chatAnswer(call: { id: string; name: string; args: unknown } | undefined) {
	const message = call
		? {
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: call.id,
						type: 'function',
						function: { name: call.name, arguments: JSON.stringify(call.args) },
					},
				],
			}
		: { role: 'assistant', content: 'Done.' };
	return {
		id: `chatcmpl-${Date.now()}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: 'scripted-model',
		choices: [{ index: 0, message, finish_reason: call ? 'tool_calls' : 'stop' }],
		usage,
	};
}

function responsesAnswer(call: { id: string; name: string; args: unknown } | undefined) {
	const output = call
		? [
				{
					type: 'function_call',
					id: `fc_${call.id}`,
					call_id: call.id,
					name: call.name,
					arguments: JSON.stringify(call.args),
					status: 'completed',
				},
			]
		: [
				{
					type: 'message',
					id: `msg_${Date.now()}`,
					role: 'assistant',
					status: 'completed',
					content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
				},
			];
	return {
		id: `resp_${Date.now()}`,
		object: 'response',
		created_at: Math.floor(Date.now() / 1000),
		status: 'completed',
		model: 'scripted-model',
		output,
		usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
	};
}

async function readJson(request: IncomingMessage): Promise<Record<string, any>> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	const text = Buffer.concat(chunks).toString('utf8');
	return text === '' ? {} : (JSON.parse(text) as Record<string, any>);
}

export async function startScriptedModel(plan: Plan): Promise<ScriptedModel> {
	const requests: ModelRequest[] = [];
	let counter = 0;
	const server: Server = createServer((request, response) => {
		const api: Api | undefined = request.url?.endsWith('/chat/completions')
			? 'chat'
			: request.url?.endsWith('/responses')
				? 'responses'
				: undefined;
		if (request.method !== 'POST' || !api) {
			response
				.writeHead(404, { 'content-type': 'application/json' })
				.end(JSON.stringify({ error: { message: 'not scripted' } }));
			return;
		}
		void readJson(request).then((body) => {
			const { prompt, earlier, toolResults } = conversation(api, body);
			requests.push({ api, body, prompt, earlier, toolResults });
			const args = plan(prompt, api, earlier)[toolResults.length];
			const call = args
				? { id: `call_${++counter}`, name: toolNameOf(api, body), args }
				: undefined;
			const answer = api === 'chat' ? chatAnswer(call) : responsesAnswer(call);
			response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
