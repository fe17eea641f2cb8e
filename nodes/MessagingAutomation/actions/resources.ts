import type { INodePropertyOptions } from 'n8n-workflow';

import { findTool } from '../../shared/catalogue';
import type { ToolResource } from '../../shared/catalogue/types';

/** The first dropdown. Webhook is the only resource whose operations are not tools. */
export type NodeResource = ToolResource | 'webhook';

export const RESOURCE_OPTIONS: Array<INodePropertyOptions & { value: NodeResource }> = [
	{ name: 'Account', value: 'account', description: 'The account, its numbers and what the key may do' },
	{ name: 'Business Account', value: 'businessAccount', description: 'Business sender, health, billing and analytics' },
	{ name: 'Business Template', value: 'businessTemplate', description: 'Text templates for the Business channel' },
	{ name: 'Campaign', value: 'campaign', description: 'Template campaigns and their recipients' },
	{ name: 'Chat', value: 'chat', description: 'Conversations and their saved history' },
	{ name: 'Form', value: 'form', description: 'Interactive forms opened inside a chat' },
	{ name: 'Group', value: 'group', description: 'Groups of the personal (QR) number' },
	{ name: 'Message', value: 'message', description: 'Send, edit, delete, forward and find messages' },
	{ name: 'Number Filter', value: 'numberFilter', description: 'Which numbers are saved and eligible for sending' },
	{ name: 'Other', value: 'other', description: 'Any other tool the API key may use' },
	{ name: 'Webhook', value: 'webhook', description: 'Endpoints that receive signed events' },
];

/* Order matters: the first pattern that matches a tool name wins. */
const NAME_PATTERNS: Array<[RegExp, ToolResource]> = [
	[/template/, 'businessTemplate'],
	[/campaign/, 'campaign'],
	[/number_filter|filter/, 'numberFilter'],
	[/group/, 'group'],
	[/form/, 'form'],
	[/business/, 'businessAccount'],
	[/message|send|attachment/, 'message'],
	[/conversation|chat/, 'chat'],
	[/account|me$/, 'account'],
];

/** Where a tool belongs: the catalogue's word for known tools, a guess from the name for others. */
export function resourceOfTool(name: string): ToolResource {
	const known = findTool(name)?.resource;
	if (known) return known;
	return NAME_PATTERNS.find(([pattern]) => pattern.test(name))?.[1] ?? 'other';
}
