import type { INodeProperties, ISupplyDataFunctions } from 'n8n-workflow';

import type { HistorySettings } from './conversationHistory';

export const memoryProperties: INodeProperties[] = [
	{
		displayName:
			'The memory is the conversation as the service saved it: what the person wrote, what the bot sent and what staff typed on the phone. The Agent saves nothing here: its answer becomes part of the memory once it is sent in the chat (with the Reply tool, say).',
		name: 'memoryNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Conversation ID',
		name: 'conversationId',
		type: 'string',
		default: '={{ $json.conversation_id }}',
		required: true,
		description:
			'The chat to remember. The default works behind the Messaging Automation Trigger and behind the messages the action node outputs.',
	},
	{
		displayName: 'Current Message IDs',
		name: 'currentMessageIds',
		type: 'string',
		default: '={{ $json.message_ids ?? $json.message_id ?? $json.id }}',
		description:
			"The run's own message or burst of quick messages, which the Agent already has as its input: the memory ends just before it, so it never appears twice. The default works behind the trigger (grouped or not) and behind the action node's messages; empty: the memory ends with the newest message.",
	},
	{
		displayName: 'Context Window Length',
		name: 'contextWindowLength',
		type: 'number',
		default: 5,
		typeOptions: { minValue: 1, maxValue: 50 },
		description:
			"How many past interactions the model receives as context: twice as many of the chat's latest messages, as n8n's own memories count them",
	},
];

/** Ids from what the expression gives: one id, a list of them (a grouped turn's), or nothing. */
function idsOf(value: unknown): string[] {
	const values = Array.isArray(value) ? value : [value];
	return values.filter((id): id is string => typeof id === 'string' && id.trim() !== '');
}

export function memorySettings(
	context: ISupplyDataFunctions,
	itemIndex: number,
): HistorySettings & { windowLength: number } {
	const windowLength = Math.max(
		1,
		Math.floor(Number(context.getNodeParameter('contextWindowLength', itemIndex, 5))),
	);
	return {
		conversationId: String(context.getNodeParameter('conversationId', itemIndex, '') ?? '').trim(),
		currentIds: idsOf(context.getNodeParameter('currentMessageIds', itemIndex, '')),
		messageCount: windowLength * 2,
		windowLength,
	};
}
