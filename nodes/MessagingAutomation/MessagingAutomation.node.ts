import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { nodeProperties } from './actions/description';
import { router } from './actions/router';
import { loadOptions, resourceMapping } from './methods';

export class MessagingAutomation implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Automation',
		name: 'messagingAutomation',
		icon: { light: 'file:messagingAutomation.svg', dark: 'file:messagingAutomation.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{ $parameter["resource"] + ": " + $parameter["operation"] }}',
		description:
			'Send, read and manage messages, chats, groups, campaigns, templates and forms on a personal (QR) number and the official Business channel; every write carries an idempotency key, so retries never send twice',
		defaults: { name: 'Messaging Automation' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'messagingAutomationApi', required: true }],
		properties: nodeProperties,
	};

	methods = { loadOptions, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
