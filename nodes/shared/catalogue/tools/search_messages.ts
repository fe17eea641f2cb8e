import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { channel, chars, conversationId } from '../formats';
import { assumedReadTool, pagedList, pageFields } from '../shapes';

export const searchMessagesTool = defineTool({
	name: 'search_messages',
	displayName: 'Search Messages',
	operation: {
		value: 'search',
		name: 'Search',
		action: 'Search messages',
		summary: 'Find saved messages whose text contains a search term',
	},
	resource: 'message',
	...assumedReadTool,
	...pagedList,
	channel: 'none',
	description: 'Finds saved messages whose text contains the search term, newest first.',
	input: z.strictObject({
		query: chars(1, 200).meta({ title: 'Search Term', examples: ['invoice'] }).describe('Text to look for'),
		conversationId: conversationId.optional(),
		channel: channel.optional(),
		...pageFields,
	}),
});
