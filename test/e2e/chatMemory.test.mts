import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_TYPES, upsertCredential, withCredential } from '../dev/stack.mjs';
import { startN8n } from '../support/n8nProcess.mjs';
import {
	executionError,
	loginN8n,
	type N8nRestApi,
	type N8nWorkflowInput,
} from '../support/n8nRestApi.mjs';
import {
	e2e,
	endpointRegistered,
	n8nApi,
	sandboxControl,
	sandboxCredential,
	unique,
	waitFor,
} from './support/context.mjs';
import { startScriptedModel, type ScriptedModel } from './support/scriptedModel.mjs';
import { workflowNode } from './support/workflows.mjs';

/*
 * The chat memory under n8n's own AI Agent, with n8n's OpenAI Chat Model pointed at the scripted
 * model: each turn the model answers through the Reply tool, and its request shows what the
 * memory gave it. Regular mode: on an n8n of its own, a turn, staff typing on the phone, a restart
 * of n8n, then a grouped burst. Queue mode: turns until two different workers ran them. n8n 1.x
 * has no AI node SDK: the package loads, and the memory says it needs n8n 2.x.
 */

const { mode, n8nVersion, owner } = e2e();
const needsSdk = Number(n8nVersion.split('.')[0]) < 2;
const SYSTEM = 'You answer the customer in their chat through the Reply tool.';

/** The model's one reply per turn: what it was asked, so the chat shows which turn it answered. */
const replyTo = (prompt: string) => `(scripted) about: ${prompt.split('\n').join(' / ')}`;

interface Exchange {
	role: string;
	text: string;
}

/** The chat messages of a Chat Completions request, as role and text. */
function exchanges(body: Record<string, any>): Exchange[] {
	return (body.messages as Array<{ role: string; content: unknown }>).map((message) => ({
		role: message.role,
		text:
			typeof message.content === 'string'
				? message.content
				: (message.content as Array<{ text?: string }>).map((part) => part.text ?? '').join(''),
	}));
}

function memoryWorkflow(
	credential: { id: string; name: string },
	modelCredential: { id: string; name: string },
	webhookId: string,
	trigger: Record<string, unknown>,
): N8nWorkflowInput {
	const trig = {
		...workflowNode('On Incoming Messages', NODE_TYPES.trigger, 1, [0, 0], {
			events: ['message.received'],
			filters: { channels: ['business'], chatType: 'oneToOne', ignoreOwnMessages: true },
			...trigger,
		}),
		webhookId,
	};
	return withCredential(
		{
			name: unique('e2e chat memory'),
			nodes: [
				trig,
				workflowNode('AI Agent', '@n8n/n8n-nodes-langchain.agent', 3, [280, 0], {
					promptType: 'define',
					text: '={{ $json.text }}',
					options: { systemMessage: SYSTEM },
				}),
				workflowNode('Chat Model', '@n8n/n8n-nodes-langchain.lmChatOpenAi', 1.3, [160, 220], {
					model: { __rl: true, mode: 'id', value: 'scripted-model' },
					responsesApiEnabled: false,
					options: {},
				}),
				// The memory's fields as the editor leaves them: the defaults.
				workflowNode('Chat Memory', NODE_TYPES.memory, 1, [300, 220], {}),
				workflowNode('Reply in Chat', `${NODE_TYPES.action}Tool`, 1, [440, 220], {
					resource: 'message',
					operation: 'send',
					channel: "={{ $('On Incoming Messages').first().json.channel }}",
					sendTo: 'conversationId',
					conversationId: "={{ $('On Incoming Messages').first().json.conversation_id }}",
					messageType: 'text',
				}),
			],
			connections: {
				'On Incoming Messages': { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
				'Chat Model': {
					ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
				},
				'Chat Memory': { ai_memory: [[{ node: 'AI Agent', type: 'ai_memory', index: 0 }]] },
				'Reply in Chat': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		},
		credential,
		modelCredential,
	);
}

/** One person's chat, and the runs of one workflow answering it. */
function chat(sender: string, api: () => N8nRestApi, workflowId: () => string) {
	return {
		async say(text: string) {
			await sandboxControl('POST', '/inject/message', {
				channel: 'business',
				from: { phone: sender, name: 'Dana' },
				text,
			});
		},
		/** Staff typing in the chat on the phone: the account's own message, no API send. */
		async staffTypes(text: string) {
			await sandboxControl('POST', '/inject/message', {
				channel: 'business',
				from: { phone: sender },
				fromMe: true,
				text,
			});
		},
		async finishedRuns(count: number) {
			return await waitFor(
				`${count} finished runs`,
				async () => {
					const list = await api().listExecutions(workflowId());
					return list.length >= count &&
						list.every((run) => !['running', 'new', 'waiting'].includes(run.status))
						? list
						: undefined;
				},
				120_000,
			);
		},
	};
}

/** The model's first request of the turn that answered `prompt`: what the Agent sent with it. */
function turnRequest(model: ScriptedModel, prompt: string): Exchange[] {
	const request = model.requests.find(
		(candidate) => candidate.prompt === prompt && candidate.toolResults.length === 0,
	);
	expect(request, `a model request for ${JSON.stringify(prompt)}`).toBeDefined();
	return exchanges(request!.body);
}

describe.runIf(mode === 'regular' && !needsSdk)(
	'chat memory under the AI Agent, through a restart of n8n',
	() => {
		const userFolder = join(e2e().userFolder, '..', `memory-${randomUUID().slice(0, 6)}`);
		const SENDER = '4915198765511';
		let n8n: Awaited<ReturnType<typeof startN8n>>;
		let api: N8nRestApi;
		let model: ScriptedModel;
		let workflowId = '';
		let starts = 0;
		const dana = chat(
			SENDER,
			() => api,
			() => workflowId,
		);

		async function start() {
			starts++;
			n8n = await startN8n({
				userFolder,
				port: n8n?.port,
				fresh: starts === 1,
				installPackage: starts === 1,
				logName: `n8n-memory-${starts}.log`,
			});
			api = await loginN8n(n8n.url, owner);
		}

		beforeAll(async () => {
			await sandboxControl('POST', '/clock', { speed: 1 });
			model = await startScriptedModel((prompt) => [{ Text: replyTo(prompt) }]);
			await start();
			const modelCredential = await upsertCredential(
				api,
				`e2e scripted model ${randomUUID()}`,
				{ apiKey: 'sk-scripted-model', url: model.url, header: false },
				'openAiApi',
			);
			const webhookId = randomUUID();
			const workflow = await api.createWorkflow(
				memoryWorkflow(await sandboxCredential(api), modelCredential, webhookId, {
					groupQuickMessages: true,
					quietWindowSeconds: 3,
					longestWaitSeconds: 30,
				}),
			);
			workflowId = workflow.id;
			await api.activateWorkflow(workflowId);
			await endpointRegistered(webhookId);
		}, 240_000);

		afterAll(async () => {
			await api?.deactivateWorkflow(workflowId).catch(() => undefined);
			await n8n?.stop();
			await model?.stop();
		});

		it('gives the model the person, the bot and staff in order, and the new burst once, after a restart', async () => {
			const first = 'mem-e2e: do you ship to Spain?';
			await dana.say(first);
			await dana.finishedRuns(1);
			await dana.staffTypes('mem-e2e staff: a colleague will check your order.');
			process.kill(-n8n.pid, 'SIGTERM');
			await n8n.exited;
			await start();

			await dana.say('hi again');
			await dana.say('order 4411, where is it?');
			const runs = await dana.finishedRuns(2);
			expect(runs.map((run) => run.status)).toEqual(['success', 'success']);

			const burst = 'hi again\norder 4411, where is it?';
			expect(turnRequest(model, burst)).toEqual([
				{ role: 'system', text: expect.stringContaining(SYSTEM) },
				{ role: 'user', text: first },
				{ role: 'assistant', text: replyTo(first) },
				{ role: 'assistant', text: 'mem-e2e staff: a colleague will check your order.' },
				{ role: 'user', text: burst },
			]);
			// The first turn had nothing before it: the memory holds no more than the chat.
			expect(turnRequest(model, first)).toEqual([
				{ role: 'system', text: expect.stringContaining(SYSTEM) },
				{ role: 'user', text: first },
			]);
		}, 400_000);
	},
);

describe.runIf(mode === 'queue')(
	'chat memory under the AI Agent, turns on different workers',
	() => {
		const SENDER = '4915198765522';
		const TURNS = 5;
		let api: N8nRestApi;
		let model: ScriptedModel;
		let workflowId = '';
		const dana = chat(
			SENDER,
			() => api,
			() => workflowId,
		);

		beforeAll(async () => {
			await sandboxControl('POST', '/clock', { speed: 1 });
			api = await n8nApi();
			model = await startScriptedModel((prompt) => [{ Text: replyTo(prompt) }]);
			const modelCredential = await upsertCredential(
				api,
				`e2e scripted model ${randomUUID()}`,
				{ apiKey: 'sk-scripted-model', url: model.url, header: false },
				'openAiApi',
			);
			const webhookId = randomUUID();
			const workflow = await api.createWorkflow(
				memoryWorkflow(await sandboxCredential(api), modelCredential, webhookId, {}),
			);
			workflowId = workflow.id;
			await api.activateWorkflow(workflowId);
			await endpointRegistered(webhookId);
		});

		afterAll(async () => {
			await api?.deactivateWorkflow(workflowId).catch(() => undefined);
			await model?.stop();
		});

		/** The worker whose log names the execution. */
		function workerOf(executionId: string): string | undefined {
			return (e2e().workerLogs ?? []).find((log) =>
				readFileSync(log, 'utf8').includes(`Worker started execution ${executionId} (job`),
			);
		}

		it('each turn remembers every earlier one, whichever worker ran it', async () => {
			const workers = new Set<string>();
			const said: string[] = [];
			for (let turn = 0; turn < TURNS && workers.size < 2; turn++) {
				const text = `mem-q turn ${turn}`;
				await dana.say(text);
				const [latest] = await dana.finishedRuns(turn + 1);
				expect(latest.status).toBe('success');
				const worker = await waitFor('the worker that ran it', async () => workerOf(latest.id));
				workers.add(worker);
				expect(turnRequest(model, text).slice(1)).toEqual([
					...said.flatMap((earlier) => [
						{ role: 'user', text: earlier },
						{ role: 'assistant', text: replyTo(earlier) },
					]),
					{ role: 'user', text },
				]);
				said.push(text);
			}
			expect(workers.size).toBe(2);
		}, 400_000);
	},
);

describe.runIf(mode === 'regular' && needsSdk)('chat memory on n8n 1.x', () => {
	const SENDER = '4915198765533';
	let api: N8nRestApi;
	let model: ScriptedModel;
	let workflowId = '';
	const dana = chat(
		SENDER,
		() => api,
		() => workflowId,
	);

	beforeAll(async () => {
		api = await n8nApi();
		model = await startScriptedModel((prompt) => [{ Text: replyTo(prompt) }]);
		const modelCredential = await upsertCredential(
			api,
			`e2e scripted model ${randomUUID()}`,
			{ apiKey: 'sk-scripted-model', url: model.url, header: false },
			'openAiApi',
		);
		const webhookId = randomUUID();
		const workflow = await api.createWorkflow(
			memoryWorkflow(await sandboxCredential(api), modelCredential, webhookId, {}),
		);
		workflowId = workflow.id;
		await api.activateWorkflow(workflowId);
		await endpointRegistered(webhookId);
	});

	afterAll(async () => {
		await api?.deactivateWorkflow(workflowId).catch(() => undefined);
		await model?.stop();
	});

	it('loads with the package and, when the Agent runs, says it needs n8n 2.x; nothing is sent', async () => {
		await dana.say('mem-1x: hello?');
		const [run] = await dana.finishedRuns(1);
		expect(run.status).toBe('error');
		expect(executionError(await api.getExecution(run.id))).toContain('This memory needs n8n 2.x');
		expect(model.requests).toEqual([]);
		const { sends } = await sandboxControl<{ sends: Array<{ to: string }> }>('GET', '/sends');
		expect(sends.filter((send) => send.to === SENDER)).toEqual([]);
	});
});
