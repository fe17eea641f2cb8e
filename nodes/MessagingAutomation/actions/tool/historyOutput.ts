import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { historyEntry, historyText } from '../../../shared/conversation/history';
import { timelineOf } from '../../../shared/conversation/timeline';
import { forTools, toolsThat } from '../toolGroups';
import type { ToolSchema } from './toolSchema';

/*
 * Message › Get Many can give what the trigger's Include Conversation History gives: one item
 * with the messages as entries a prompt can use (who spoke, text, time), oldest first, and the
 * same as lines in `history_text`.
 */

export const historyOutputProperties: INodeProperties[] = forTools(toolsThat((tool) => tool.conversationHistory === true), (displayOptions) => ({
	displayName: 'Output',
	name: 'output',
	type: 'options',
	default: 'messages',
	displayOptions,
	options: [
		{
			name: 'Conversation History',
			value: 'history',
			description: 'One item: the messages as entries (who spoke, text, time), oldest first, and the same as lines of text, ready for an AI Agent prompt',
		},
		{ name: 'Messages', value: 'messages', description: 'One item per message, newest first, as the service returns them' },
	],
}));

/** Whether the run should answer with one history item instead of one item per message. */
export function wantsHistory(context: IExecuteFunctions, tool: ToolSchema, itemIndex: number): boolean {
	return tool.definition?.conversationHistory === true && context.getNodeParameter('output', itemIndex, 'messages') === 'history';
}

export function historyItem(messages: unknown[], conversationId: unknown, itemIndex: number): INodeExecutionData {
	const history = timelineOf({ messages }).map(historyEntry);
	return {
		json: { conversation_id: conversationId ?? null, history: history as unknown as IDataObject[], history_text: historyText(history) },
		pairedItem: { item: itemIndex },
	};
}
