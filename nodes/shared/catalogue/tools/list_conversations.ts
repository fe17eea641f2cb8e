import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { channel } from '../formats';
import { assumedReadTool, pagedList, pageFields } from '../shapes';

export const listConversationsTool = defineTool({
	name: 'list_conversations',
	displayName: 'List Conversations',
	operation: {
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many chats',
		summary: 'List saved chats, most recent activity first',
		default: true,
	},
	resource: 'chat',
	...assumedReadTool,
	...pagedList,
	channel: 'none',
	description:
		'Lists saved chats, newest activity first, each with the conversation id that the send and ' +
		'read tools take.',
	input: z.strictObject({
		channel: channel.optional(),
		chat_type: z
			.enum(['individual', 'group'])
			.optional()
			.meta({ title: 'Chat Type' })
			.describe('Only one-to-one chats, or only groups'),
		...pageFields,
	}),
});
