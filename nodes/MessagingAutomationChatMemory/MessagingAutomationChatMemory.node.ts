import {
	NodeConnectionTypes,
	type INodeType,
	type INodeTypeDescription,
	type ISupplyDataFunctions,
	type SupplyData,
} from 'n8n-workflow';

import { ConversationHistory } from './conversationHistory';
import { supplyWindowedMemory } from './aiNodeSdk';
import { memoryProperties, memorySettings } from './description';

export class MessagingAutomationChatMemory implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Automation Chat Memory',
		name: 'messagingAutomationChatMemory',
		icon: {
			light: 'file:../MessagingAutomation/messagingAutomation.svg',
			dark: 'file:../MessagingAutomation/messagingAutomation.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ "Last " + $parameter.contextWindowLength + " interactions" }}',
		description:
			"An AI Agent's memory read from the chat itself: the person's, the bot's and staff's messages (needs n8n 2.x)",
		defaults: { name: 'Chat Memory' },
		inputs: [],
		outputs: [NodeConnectionTypes.AiMemory],
		outputNames: ['Memory'],
		credentials: [{ name: 'messagingAutomationApi', required: true }],
		properties: memoryProperties,
	};

	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		const settings = memorySettings(this, itemIndex);
		const history = new ConversationHistory(this, settings);
		return supplyWindowedMemory(this, history, settings.windowLength);
	}
}
