import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { conversationId } from '../formats';
import { assumedReadTool, pagedList, pageFields } from '../shapes';

export const getMessagesTool = defineTool({
	name: 'get_messages',
	displayName: 'Get Messages',
	operation: {
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many messages',
		summary: 'Read the saved messages of a chat, newest first',
	},
	resource: 'message',
	...assumedReadTool,
	...pagedList,
	channel: 'none',
	conversationHistory: true,
	description: 'Reads the saved messages of one conversation, newest first.',
	input: z.strictObject({ conversationId, ...pageFields }),
});
