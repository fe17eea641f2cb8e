import { z } from 'zod/v4';
import { channel, chars, integer, templateLanguage, templateName } from '../../../nodes/shared/catalogue/formats';
import type { ToolDefinition } from '../../../nodes/shared/catalogue/types';

/** What the sandbox needs of a tool: the node's operation metadata plays no part in the service. */
export type ServiceTool = Omit<
	ToolDefinition,
	'operation' | 'layout' | 'shapeAssumed' | 'paging' | 'simplify' | 'downloadsLink' | 'csvAnalysis' | 'outcomeCheck' | 'answersLookup'
>;

/*
 * Tools the spec names without request shapes. The sandbox (standing in for the live service)
 * models them on its own; the node's catalogue only assumes their shapes and checks input
 * against what GET /api/v1/tools lists.
 * Lists page with an opaque `cursor` and `limit` (1-100, default 20); answers carry `next_cursor`.
 */

const page = {
	cursor: chars(1, 200).optional().describe('next_cursor from the previous page; omit for the first page'),
	limit: integer(1, 100).optional().describe('Items per page, 1-100 (default 20)'),
};
const conversationId = chars(1, 250).describe('Exact conversation id from list_conversations or an event');

function readTool(
	name: string,
	displayName: string,
	resource: ToolDefinition['resource'],
	description: string,
	input: z.ZodObject,
	toolChannel: ToolDefinition['channel'] = 'none',
): ServiceTool {
	return {
		name, displayName, resource, access: 'read', scope: 'messenger.read', ownerOnly: false,
		channel: toolChannel, countsAsSend: false, description, input,
	};
}

export const extraTools: readonly ServiceTool[] = [
	readTool(
		'list_conversations',
		'List Conversations',
		'chat',
		'Lists saved chats, newest activity first, with their conversation_id for get_messages and send_message. Pages with cursor/next_cursor.',
		z.strictObject({ channel: channel.optional(), chat_type: z.enum(['individual', 'group']).optional(), ...page }),
	),
	readTool(
		'get_messages',
		'Get Messages',
		'message',
		'Reads the saved messages of one conversation, newest first. Pages with cursor/next_cursor.',
		z.strictObject({ conversationId, ...page }),
	),
	readTool(
		'search_messages',
		'Search Messages',
		'message',
		'Finds saved messages whose text contains the query (case-insensitive), newest first. Pages with cursor/next_cursor.',
		z.strictObject({ query: chars(1, 200), conversationId: conversationId.optional(), channel: channel.optional(), ...page }),
	),
	readTool(
		'search_attachments',
		'Search Attachments',
		'message',
		'Finds saved files by file name or caption and MIME type prefix; use get_attachment_link on items with download_available true.',
		z.strictObject({
			query: chars(1, 200).optional(),
			mimeType: chars(1, 100).optional().describe('MIME type or prefix, e.g. image/ or application/pdf'),
			conversationId: conversationId.optional(),
			...page,
		}),
	),
	readTool(
		'get_business_template',
		'Get Business Template',
		'businessTemplate',
		'Reads one Business template with its review status (PENDING, APPROVED or REJECTED) and body. Give language when the name exists in several.',
		z.strictObject({ name: templateName, language: templateLanguage.optional() }),
		'business',
	),
	readTool(
		'get_business_pricing_analytics',
		'Get Business Pricing Analytics',
		'businessAccount',
		'Reads delivered Business volume and estimated cost per pricing category for up to 90 days; not an invoice.',
		z.strictObject({ days: integer(1, 90).optional().describe('Days back, 1-90 (default 30)') }),
		'business',
	),
];
