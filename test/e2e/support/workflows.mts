import { randomUUID } from 'node:crypto';
import { NODE_TYPES, withCredential } from '../../dev/stack.mjs';
import type { N8nWorkflowInput } from '../../support/n8nRestApi.mjs';

type Credential = { id: string; name: string };

const link = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });

/** Manual trigger "Start" -> one action node "Action" with the given parameters. */
export function actionWorkflow(
	name: string,
	credential: Credential,
	parameters: Record<string, unknown>,
): N8nWorkflowInput {
	return withCredential(
		{
			name,
			nodes: [
				{
					id: randomUUID(),
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: randomUUID(),
					name: 'Action',
					type: NODE_TYPES.action,
					typeVersion: 1,
					position: [240, 0],
					parameters,
				},
			],
			connections: { Start: link('Action') },
			settings: { executionOrder: 'v1' },
		},
		credential,
	);
}

/** The trigger alone, as node "Trigger", listening at `/webhook/<webhookId>/webhook`. */
export function triggerWorkflow(
	name: string,
	credential: Credential,
	webhookId: string,
	parameters: Record<string, unknown>,
): N8nWorkflowInput {
	return withCredential(
		{
			name,
			nodes: [
				{
					id: randomUUID(),
					name: 'Trigger',
					type: NODE_TYPES.trigger,
					typeVersion: 1.1,
					position: [0, 0],
					webhookId,
					parameters,
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		},
		credential,
	);
}

/** One node of a workflow with a fresh id: what the editor would save for it. */
export function workflowNode(
	name: string,
	type: string,
	typeVersion: number,
	position: [number, number],
	parameters: Record<string, unknown>,
) {
	return { id: randomUUID(), name, type, typeVersion, position, parameters };
}

/**
 * A reply bot on n8n's AI Agent with the chat memory (its fields left at their defaults): the
 * trigger (plus `options.trigger`) for one-to-one Business chats, the Agent prompted with the
 * message's text, n8n's OpenAI Chat Model and the action node as the Reply tool.
 */
export function memoryWorkflow(
	credential: { id: string; name: string },
	modelCredential: { id: string; name: string },
	webhookId: string,
	options: { systemMessage: string; trigger: Record<string, unknown> },
): N8nWorkflowInput {
	const trig = {
		...workflowNode('On Incoming Messages', NODE_TYPES.trigger, 1.1, [0, 0], {
			events: ['message.received'],
			filters: { channels: ['business'], chatType: 'oneToOne', ignoreOwnMessages: true },
			...options.trigger,
		}),
		webhookId,
	};
	return withCredential(
		{
			name: `e2e chat memory ${randomUUID()}`,
			nodes: [
				trig,
				workflowNode('AI Agent', '@n8n/n8n-nodes-langchain.agent', 3, [280, 0], {
					promptType: 'define',
					text: '={{ $json.text }}',
					options: { systemMessage: options.systemMessage },
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

/**
 * The Catch-Up node "Catch-Up" leading to a No Operation node "Reply", beside a Messaging Automation
 * Trigger "Trigger" (also leading there) when `trigger` says so: none, or one deactivated in the
 * editor (disabled). The trigger's fields are the README's (Group Quick Messages on).
 */
export function catchUpWorkflow(
	name: string,
	credential: Credential,
	trigger: 'none' | 'deactivated',
): N8nWorkflowInput {
	const catchUp = workflowNode('Catch-Up', NODE_TYPES.catchUp, 1, [0, 200], {
		pollTimes: { item: [{ mode: 'everyMinute' }] },
	});
	const beside =
		trigger === 'none'
			? []
			: [
					{
						...workflowNode('Trigger', NODE_TYPES.trigger, 1.1, [0, 0], {
							events: ['message.received'],
							groupQuickMessages: true,
						}),
						webhookId: randomUUID(),
						disabled: true,
					},
				];
	const nodes = [...beside, catchUp];
	return withCredential(
		{
			name,
			nodes: [...nodes, workflowNode('Reply', 'n8n-nodes-base.noOp', 1, [300, 100], {})],
			connections: Object.fromEntries(nodes.map((node) => [node.name, link('Reply')])),
			settings: { executionOrder: 'v1' },
		},
		credential,
	);
}

/**
 * The Catch-Up node "Catch-Up" beside an active Messaging Automation Trigger "Trigger" with Human
 * Takeover on, as the Catch-Up's notice says to connect them: each node's Bot output to the No
 * Operation node "Reply", each one's Paused Chats to the No Operation node "Notify Staff".
 */
export function catchUpTakeoverWorkflow(name: string, credential: Credential): N8nWorkflowInput {
	const outputs = {
		main: [
			[{ node: 'Reply', type: 'main', index: 0 }],
			[{ node: 'Notify Staff', type: 'main', index: 0 }],
		],
	};
	return withCredential(
		{
			name,
			nodes: [
				{
					...workflowNode('Trigger', NODE_TYPES.trigger, 1.1, [0, 0], {
						events: ['message.received'],
						groupQuickMessages: true,
						humanTakeover: true,
					}),
					webhookId: randomUUID(),
				},
				workflowNode('Catch-Up', NODE_TYPES.catchUp, 1, [0, 300], {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
				}),
				workflowNode('Reply', 'n8n-nodes-base.noOp', 1, [400, 50], {}),
				workflowNode('Notify Staff', 'n8n-nodes-base.noOp', 1, [400, 250], {}),
			],
			connections: { Trigger: outputs, 'Catch-Up': outputs },
			settings: { executionOrder: 'v1' },
		},
		credential,
	);
}
