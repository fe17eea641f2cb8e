import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { nodeProperties } from './actions/description';
import { operationSubtitle } from './actions/operations';
import { router } from './actions/router';
import { sendAndWaitWebhooks } from './actions/sendAndWait/description';
import { sendAndWaitWebhook } from './actions/sendAndWait/webhook';
import { loadOptions, resourceMapping } from './methods';

export class MessagingAutomation implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Automation',
		name: 'messagingAutomation',
		icon: { light: 'file:messagingAutomation.svg', dark: 'file:messagingAutomation.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: operationSubtitle(nodeProperties),
		description:
			'Send and manage chat messages, groups, campaigns and templates on a personal or Business number',
		defaults: { name: 'Messaging Automation' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'messagingAutomationApi', required: true }],
		webhooks: sendAndWaitWebhooks,
		waitingNodeTooltip:
			'={{ $parameter["operation"] === "sendAndWait" ? "Execution will continue after the person answers" : "" }}',
		properties: nodeProperties,
	};

	methods = { loadOptions, resourceMapping };

	webhook = sendAndWaitWebhook;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
