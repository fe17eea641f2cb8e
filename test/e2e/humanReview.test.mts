import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_TYPES } from '../dev/stack.mjs';
import { executionError, type N8nRestApi } from '../support/n8nRestApi.mjs';
import {
	ANSWERS_TRIGGER,
	delivered,
	newPhone,
	triggerRuns,
	writeInChat,
} from './support/chatAnswers.mjs';
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
import { triggerWorkflow, workflowNode } from './support/workflows.mjs';

/*
 * n8n's "Human review" variant of the node (`messagingAutomationHitlTool`, which n8n 2.x builds
 * because Message has the static `sendAndWait` operation and the node has webhooks) gating an AI
 * Agent's tool: the agent's call sends an approval request over chat through the sandbox, and the
 * gated tool (Send a message) runs only after Approve, never after Decline. With Answer in Chat,
 * the reviewer may approve by replying "1", passed on by an active trigger (Pass Answers to Send
 * and Wait) as for any Send and Wait.
 */

const REVIEWER = '447700900123';
const RECIPIENT = '4915112345678';
const BROWSER_AGENT =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

interface Send {
	text: string;
	to: string;
}

/**
 * The model calls the gated tool once per prompt "review <id>", sending "reviewed-<id>". Behind
 * Human review, n8n shows the model the tool's parameters under `toolParameters`.
 */
function plan(prompt: string): Array<Record<string, unknown>> {
	const [, id] = /^review (\S+)/.exec(prompt) ?? [];
	return id
		? [{ toolParameters: { Phone_Number: RECIPIENT, Text: `reviewed-${id}` }, hitlParameters: {} }]
		: [];
}

/** `reviewer`: more of Ask a Reviewer's parameters (its phone number, Answer in Chat). */
function reviewWorkflow(
	prompt: string,
	sandbox: { id: string; name: string },
	openAi: { id: string; name: string },
	reviewer: Record<string, unknown>,
) {
	const node = workflowNode;
	return {
		name: unique('e2e human review'),
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
			node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 3.1, [240, 0], {
				promptType: 'define',
				text: prompt,
				options: {},
			}),
			{
				...node('Model', '@n8n/n8n-nodes-langchain.lmChatOpenAi', 1.3, [160, 220], {
					model: { __rl: true, mode: 'id', value: 'scripted-model' },
					responsesApiEnabled: false,
					options: {},
				}),
				credentials: { openAiApi: openAi },
			},
			{
				...node('Ask a Reviewer', `${NODE_TYPES.action}HitlTool`, 1, [320, 220], {
					channel: 'qr',
					sendTo: 'phoneNumber',
					phoneNumber: REVIEWER,
					approvalOptions: { values: { approvalType: 'double' } },
					...reviewer,
				}),
				credentials: { messagingAutomationApi: sandbox },
			},
			{
				...node('Send a message', `${NODE_TYPES.action}Tool`, 1, [320, 440], {
					resource: 'message',
					operation: 'send',
					channel: 'qr',
				}),
				credentials: { messagingAutomationApi: sandbox },
			},
		],
		connections: {
			Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			Model: { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
			'Ask a Reviewer': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
			'Send a message': { ai_tool: [[{ node: 'Ask a Reviewer', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

// n8n builds the "Human review" variants of nodes with Send and Wait from 2.x on.
const skipReason = e2e().n8nVersion.startsWith('1.')
	? `n8n ${e2e().n8nVersion} builds no Human review tool variants: these tests run on 2.x`
	: undefined;
if (skipReason) console.warn(`[e2e] Human review tests skipped: ${skipReason}`);

describe.skipIf(skipReason)(
	'Human review (the HITL tool variant) gating an AI Agent tool in a real n8n',
	() => {
		let api: N8nRestApi;
		let model: ScriptedModel;
		let sandbox: { id: string; name: string };
		let openAi: { id: string; name: string };
		const sends = async () => (await sandboxControl<{ sends: Send[] }>('GET', '/sends')).sends;

		beforeAll(async () => {
			api = await n8nApi();
			model = await startScriptedModel(plan);
			sandbox = await sandboxCredential(api);
			const created = await api.createCredential({
				name: `e2e scripted model ${randomUUID()}`,
				type: 'openAiApi',
				data: { apiKey: 'sk-scripted-model', url: model.url, header: false },
			});
			openAi = { id: created.id, name: created.name };
		});

		afterAll(async () => {
			await model?.stop();
		});

		/** Runs the agent until it waits for review; resolves with the review links sent to the reviewer. */
		/** The agent's run ended well and the gated tool sent its message exactly once. */
		async function ranGatedToolOnce(executionId: string, id: string) {
			const execution = await api.waitForExecution(executionId, 90_000);
			expect(executionError(execution)).toBeUndefined();
			expect(execution.status).toBe('success');
			expect(
				(await sends()).filter((send) => send.text === `reviewed-${id}` && send.to === RECIPIENT),
			).toHaveLength(1);
			return execution;
		}

		async function review(reviewer: Record<string, unknown> = {}): Promise<{
			id: string;
			executionId: string;
			links: Record<string, string>;
			text: string;
		}> {
			const id = randomUUID().slice(0, 8);
			// The review request and the gated tool's send are QR sends, 5 a minute (the spec's Limits):
			// the sandbox forgets the suite's earlier ones so neither waits out a Retry-After in real time.
			await sandboxControl('POST', '/limits/qr-sends/reset');
			const earlier = (await sends()).length;
			const workflow = await api.createWorkflow(
				reviewWorkflow(`review ${id}`, sandbox, openAi, reviewer),
			);
			const { executionId } = await api.runManually(workflow.id, 'Start');
			await waitFor('the agent to wait for review', async () => {
				const execution = await api.getExecution(executionId);
				if (execution.status === 'error')
					throw new Error(`execution failed: ${executionError(execution)}`);
				return execution.status === 'waiting' ? true : undefined;
			});
			const question = await waitFor('the review request in the sandbox', async () =>
				(await sends())
					.slice(earlier)
					.find((send) => send.to === (reviewer.phoneNumber ?? REVIEWER)),
			);
			// n8n's default request names the tool the agent wants to run; the node writes out its
			// parameters, which n8n alone would render "[object Object]".
			expect(question.text).toMatch(
				/^The agent wants to run this tool: Send_a_message\n\nInput:\n/,
			);
			expect(question.text).toContain(`Phone Number: ${RECIPIENT}\nText: reviewed-${id}\n`);
			expect(question.text).not.toContain('[object Object]');
			const links = Object.fromEntries(
				[...question.text.matchAll(/^(.+): (http\S+)$/gm)].map(([, label, url]) => [label, url]),
			);
			// Asked, not done: the gated tool has not sent anything yet.
			expect((await sends()).filter((send) => send.text === `reviewed-${id}`)).toEqual([]);
			return { id, executionId, links, text: question.text };
		}

		it('runs the gated tool after Approve', { tags: ['every-line'] }, async () => {
			const { id, executionId, links } = await review();
			expect(Object.keys(links)).toEqual(['Approve', 'Decline']);
			await fetch(links.Approve, { headers: { 'user-agent': BROWSER_AGENT } });
			await ranGatedToolOnce(executionId, id);
		});

		it('never runs it after Decline, and tells the model so', async () => {
			const { id, executionId, links } = await review();
			await fetch(links.Decline, { headers: { 'user-agent': BROWSER_AGENT } });
			const execution = await api.waitForExecution(executionId, 90_000);
			expect(executionError(execution)).toBeUndefined();
			expect((await sends()).filter((send) => send.text === `reviewed-${id}`)).toEqual([]);
			const last = model.requests.filter((request) => request.prompt === `review ${id}`).at(-1);
			expect(last?.toolResults.join(' ')).toMatch(/rejected/i);
		});

		it('runs the gated tool after the reviewer replies "1" in the chat; the reply starts no run', async () => {
			const phone = newPhone();
			const webhookId = randomUUID();
			const trigger = await api.createWorkflow(
				triggerWorkflow(unique('e2e review answers trigger'), sandbox, webhookId, ANSWERS_TRIGGER),
			);
			await api.activateWorkflow(trigger.id);
			try {
				await endpointRegistered(webhookId);
				const { id, executionId, text } = await review({ phoneNumber: phone, answerInChat: true });
				expect(text).toContain('\n\nReply 1 to Approve or 2 to Decline\n\n');
				const writtenAt = Date.now();
				const one = await writeInChat(phone, '1');
				const execution = await ranGatedToolOnce(executionId, id);
				await delivered(one.id);
				expect(await triggerRuns(api, trigger.id, one.id)).toBe(0);
				const stoppedAt = Date.parse((execution as { stoppedAt?: string }).stoppedAt ?? '');
				console.log(
					`[e2e human review] "1" in the chat: the agent's run finished ${stoppedAt - writtenAt} ms after the reply was written`,
				);
			} finally {
				await api.deactivateWorkflow(trigger.id).catch(() => undefined);
			}
		});
	},
);
