import type { INodePropertyOptions } from 'n8n-workflow';

import type { ToolResource } from '../../shared/catalogue/types';

/** The first dropdown. Webhook is the only resource whose operations are not tools. */
export type NodeResource = ToolResource | 'webhook';

export const RESOURCE_OPTIONS: Array<INodePropertyOptions & { value: NodeResource }> = [
	{
		name: 'Account',
		value: 'account',
		description: 'The account, its numbers and what the key may do',
	},
	{
		name: 'Business Account',
		value: 'businessAccount',
		description: 'Business sender, health, billing and analytics',
	},
	{
		name: 'Business Template',
		value: 'businessTemplate',
		description: 'Text templates for the Business channel',
	},
	{ name: 'Campaign', value: 'campaign', description: 'Template campaigns and their recipients' },
	{ name: 'Chat', value: 'chat', description: 'Conversations and their saved history' },
	{ name: 'Form', value: 'form', description: 'Interactive forms opened inside a chat' },
	{ name: 'Group', value: 'group', description: 'Groups of the personal (QR) number' },
	{
		name: 'Message',
		value: 'message',
		description: 'Send, edit, delete, forward and find messages',
	},
	{
		name: 'Number Filter',
		value: 'numberFilter',
		description: 'Which numbers are saved and eligible for sending',
	},
	{ name: 'Other', value: 'other', description: 'Any other tool the API key may use' },
	{ name: 'Webhook', value: 'webhook', description: 'Endpoints that receive signed events' },
];
