import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_TYPES } from '../dev/stack.mjs';
import type { N8nRestApi, N8nWorkflow } from '../support/n8nRestApi.mjs';
import {
	e2e,
	n8nApi,
	sandboxControl,
	sandboxCredential,
	unique,
	waitFor,
} from './support/context.mjs';
import { startScriptedModel, type Api, type ScriptedModel } from './support/scriptedModel.mjs';
import { triggerWorkflow, workflowNode } from './support/workflows.mjs';

/*
 * The action node as an AI Agent's tool in a real n8n: Messaging Automation Trigger → AI Agent,
 * with n8n's OpenAI Chat Model pointed at a scripted OpenAI-compatible model on 127.0.0.1 and the
 * node (Message › Send, added as a tool, an approved template for a closed 24-hour window) as the
 * agent's only tool. Two such workflows run side by side, one on Chat Completions and one on the
 * Responses API (the model node's default); each incoming message starts both. The event's text
 * names the scenario the scripted model plays, and every send goes back to the sender on Business,
 * whose 24-hour window that very message opened (but for the closed-window scenario's).
 */

// Not Dana's number (4915198765432): the examples' suite needs her chat as a fresh instance has it.
const SENDER = '4915198765434';
const NEVER_WROTE = '4917000037037';
const TOOL_NAME = 'Send a message in Messaging Automation';
const APIS: Api[] = ['chat', 'responses'];
/** The sandbox's approved template the tool sends when the window is closed. */
const FALLBACK = { templateName: 'order_update', values: 'there, 1042, ready for pick-up' };

interface Send {
	text: string;
	to: string;
	idempotency_key: string;
}
interface Call {
	tool: string;
	input: Record<string, unknown>;
	status: number;
	replayed: boolean;
}

/** What the model does for each scenario: the arguments of its calls, in order. */
function plan(prompt: string, api: Api): Array<Record<string, unknown>> {
	const [, scenario, id] = /^agent-e2e (\w+) (\S+)/.exec(prompt) ?? [];
	const text = (suffix = '') => `${scenario}-${api}-${id}${suffix}`;
	if (scenario === 'two')
		return [
			{ Phone_Number: SENDER, Text: text('-A') },
			{ Phone_Number: SENDER, Text: text('-B') },
		];
	if (scenario === 'same')
		return [
			{ Phone_Number: SENDER, Text: text() },
			{ Phone_Number: SENDER, Text: text() },
		];
	// A customer who never wrote to the Business number: their 24-hour window is closed.
	if (scenario === 'closed') return [{ Phone_Number: NEVER_WROTE, Text: text() }];
	if (scenario === 'invalid')
		return [
			{ Phone_Number: `+${SENDER}`, Text: text() },
			{ Phone_Number: SENDER, Text: text() },
		];
	return [];
}

// The newest AI Agent each line of n8n has: 3.1 on 2.x, 3 on 1.x (1.123 has OpenAI Chat Model 1.3
// with the Responses API switch too).
const AGENT_VERSION = e2e().n8nVersion.startsWith('1.') ? 3 : 3.1;

function agentWorkflow(
	api: Api,
	sandbox: { id: string; name: string },
	openAi: { id: string; name: string },
) {
	const webhookId = randomUUID();
	const base = triggerWorkflow(unique(`e2e agent ${api}`), sandbox, webhookId, {
		registration: 'auto',
		events: ['message.received'],
	});
	return {
		...base,
		nodes: [
			...base.nodes,
			workflowNode('AI Agent', '@n8n/n8n-nodes-langchain.agent', AGENT_VERSION, [240, 0], {
				promptType: 'define',
				text: '={{ $json.text }}',
				options: {},
			}),
			{
				...workflowNode('Model', '@n8n/n8n-nodes-langchain.lmChatOpenAi', 1.3, [160, 220], {
					model: { __rl: true, mode: 'id', value: 'scripted-model' },
					responsesApiEnabled: api === 'responses',
					options: {},
				}),
				credentials: { openAiApi: openAi },
			},
			{
				// As the editor saves a freshly added tool: only what differs from the defaults (a reply
				// bot's choice for a closed 24-hour window: the approved order update instead).
				...workflowNode(TOOL_NAME, `${NODE_TYPES.action}Tool`, 1, [320, 220], {
					resource: 'message',
					operation: 'send',
					channel: 'business',
					outsideWindow: 'template',
					templateName: FALLBACK.templateName,
					templateLanguage: 'en',
					recipientOptInConfirmed: true,
					templateVariables: 'values',
					templateParameters: FALLBACK.values,
				}),
				credentials: { messagingAutomationApi: sandbox },
			},
		],
		connections: {
			Trigger: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			Model: { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
			[TOOL_NAME]: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
	};
}

describe('the node as an AI Agent tool in a real n8n', () => {
	let api: N8nRestApi;
	let model: ScriptedModel;
	const workflows: N8nWorkflow[] = [];
	const sends = async () => (await sandboxControl<{ sends: Send[] }>('GET', '/sends')).sends;
	const sendCalls = async () =>
		(await sandboxControl<{ calls: Call[] }>('GET', '/calls')).calls.filter(
			(call) => call.tool === 'send_message',
		);

	/** Delivers one message from the sender and waits until both agent workflows have run it. */
	async function incoming(scenario: string): Promise<string> {
		const id = randomUUID().slice(0, 8);
		const before = await Promise.all(
			workflows.map(async (workflow) => (await api.listExecutions(workflow.id)).length),
		);
		await sandboxControl('POST', '/inject/message', {
			channel: 'business',
			from: { phone: SENDER, name: 'Agent Test' },
			text: `agent-e2e ${scenario} ${id}`,
		});
		await waitFor(`both agent workflows to run "${scenario}"`, async () => {
			const lists = await Promise.all(workflows.map((workflow) => api.listExecutions(workflow.id)));
			const done = lists.every(
				(list, index) =>
					list.length > before[index] &&
					list.every((execution) => execution.status !== 'running' && execution.status !== 'new'),
			);
			return done ? true : undefined;
		});
		for (const workflow of workflows) {
			const [latest] = await api.listExecutions(workflow.id);
			expect({ workflow: workflow.name, status: latest.status }).toEqual({
				workflow: workflow.name,
				status: 'success',
			});
		}
		return id;
	}

	beforeAll(async () => {
		api = await n8nApi();
		model = await startScriptedModel(plan);
		const sandbox = await sandboxCredential(api);
		const openAi = await api.createCredential({
			name: `e2e scripted model ${randomUUID()}`,
			type: 'openAiApi',
			data: { apiKey: 'sk-scripted-model', url: model.url, header: false },
		});
		for (const which of APIS) {
			const workflow = await api.createWorkflow(
				agentWorkflow(which, sandbox, { id: openAi.id, name: openAi.name }),
			);
			await api.activateWorkflow(workflow.id);
			workflows.push(workflow);
		}
		// Activation answers first and registers the trigger's endpoint right after.
		await waitFor('both triggers to register', async () => {
			const { endpoints } = await sandboxControl<{
				endpoints: Array<{ url: string; status: string }>;
			}>('GET', '/webhooks');
			const ours = workflows.map(
				(workflow) =>
					(workflow as N8nWorkflow & { nodes: Array<{ webhookId?: string }> }).nodes[0].webhookId,
			);
			const registered = ours.filter((webhookId) =>
				endpoints.some(
					(endpoint) => endpoint.status === 'active' && endpoint.url.includes(String(webhookId)),
				),
			);
			return registered.length === ours.length ? true : undefined;
		});
	});

	afterAll(async () => {
		for (const workflow of workflows)
			await api.deactivateWorkflow(workflow.id).catch(() => undefined);
		await model?.stop();
	});

	it(
		'sends two different messages of one agent run: two messages, on both APIs',
		{ tags: ['every-line'] },
		async () => {
			const id = await incoming('two');
			const texts = (await sends()).map((send) => send.text);
			for (const which of APIS) {
				expect(texts.filter((text) => text === `two-${which}-${id}-A`)).toHaveLength(1);
				expect(texts.filter((text) => text === `two-${which}-${id}-B`)).toHaveLength(1);
			}
		},
	);

	// Reads the requests the scenario above made, so it runs after it (tests in a file run in order).
	it('gives the model a readable tool: name, description and described parameters', () => {
		for (const which of APIS) {
			const first = model.requests.find((request) => request.api === which);
			expect(first?.body.tools).toHaveLength(1);
			const tool = which === 'chat' ? first?.body.tools[0].function : first?.body.tools[0];
			// Recorded for the report: what the model was given.
			console.log(`[e2e agent] tools[0] on ${which}: ${JSON.stringify(first?.body.tools[0])}`);
			expect(tool.name).toBe('Send_a_message_in_Messaging_Automation');
			expect(tool.description).toMatch(
				/^Send a message: send a text or an approved template to a number or a chat\./,
			);
			expect(tool.parameters).toMatchObject({
				type: 'object',
				required: ['Phone_Number', 'Text'],
				additionalProperties: false,
			});
			expect(tool.parameters.properties.Phone_Number.description).toContain(
				'digits only, international format, no +',
			);
			expect(tool.parameters.properties.Text.description).toContain('1-4096 characters');
		}
	});

	it('sends the same call made twice once, on both APIs', async () => {
		const callsBefore = (await sandboxControl<{ calls: Call[] }>('GET', '/calls')).calls.length;
		const id = await incoming('same');
		// The trigger's event, which n8n hands to every tool call, proves the sender's window open, also
		// when the message stands up to the rule's 15-minute margin in n8n's future (files before this
		// one may leave the sandbox's clock ahead); further ahead, each tool call checks once.
		const checks = (await sandboxControl<{ calls: Call[] }>('GET', '/calls')).calls
			.slice(callsBefore)
			.filter((call) => call.tool === 'check_recipient_send_options');
		const { now } = await sandboxControl<{ now: string }>('GET', '/clock');
		const ahead = Date.parse(now) - Date.now();
		if (ahead < 14 * 60_000) expect(checks).toEqual([]);
		console.log(
			`[e2e agent ${e2e().mode}] window checks by the tool calls: ${checks.length} (the sandbox's clock ${Math.round(ahead / 1000)} s ahead)`,
		);
		for (const which of APIS) {
			const text = `same-${which}-${id}`;
			expect((await sends()).filter((send) => send.text === text)).toHaveLength(1);
			const calls = (await sendCalls()).filter((call) => call.input.text === text);
			expect(calls.map((call) => [call.status, call.replayed])).toEqual([
				[200, false],
				[200, true],
			]);
		}
	});

	it('answers an invalid phone with an error naming the model parameter, sends nothing, then sends the corrected call once', async () => {
		const id = await incoming('invalid');
		for (const which of APIS) {
			const text = `invalid-${which}-${id}`;
			const afterFirstCall = model.requests.find(
				(request) =>
					request.api === which && request.prompt.endsWith(id) && request.toolResults.length === 1,
			);
			expect(afterFirstCall?.toolResults[0]).toContain('Phone_Number must be 7-15 digits');
			expect(afterFirstCall?.toolResults[0]).toContain('Nothing was sent');
			const calls = (await sendCalls()).filter((call) => call.input.text === text);
			expect(calls.map((call) => call.input.phoneNumber)).toEqual([SENDER]);
			expect((await sends()).filter((send) => send.text === text)).toHaveLength(1);
		}
	});

	it("sends the approved template when the customer's 24-hour window is closed, and tells the model so", async () => {
		const toNeverWrote = async () =>
			(await sendCalls()).filter(
				(call) => call.input.phoneNumber === NEVER_WROTE && call.status === 200,
			);
		const before = (await toNeverWrote()).length;
		const id = await incoming('closed');
		for (const which of APIS) {
			const afterCall = model.requests.find(
				(request) =>
					request.api === which && request.prompt.endsWith(id) && request.toolResults.length === 1,
			);
			expect(afterCall?.toolResults[0]).toContain(
				`so your text was not sent as free text: the approved template ${FALLBACK.templateName} was sent instead. Do not send it again`,
			);
		}
		// One template per workflow (one per API), the model's text not sent as free text.
		const sent = (await toNeverWrote()).slice(before);
		expect(sent.map((call) => [call.input.templateName, call.input.text, call.replayed])).toEqual(
			APIS.map(() => [FALLBACK.templateName, undefined, false]),
		);
	});
});
