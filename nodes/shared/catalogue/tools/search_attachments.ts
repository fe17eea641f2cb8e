import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { chars, conversationId } from '../formats';
import { assumedReadTool, pagedList, pageFields } from '../shapes';

export const searchAttachmentsTool = defineTool({
	name: 'search_attachments',
	displayName: 'Search Attachments',
	operation: {
		value: 'searchAttachments',
		name: 'Search Attachments',
		action: 'Search attachments',
		summary: 'Find saved files by name, caption or file type',
	},
	resource: 'message',
	...assumedReadTool,
	...pagedList,
	channel: 'none',
	description:
		'Finds saved files by file name or caption and file type. Files marked as downloadable can ' +
		'then be fetched with Get Attachment.',
	input: z.strictObject({
		query: chars(1, 200).optional().meta({ title: 'Search Term', examples: ['invoice'] }).describe('Text in the file name or caption'),
		mimeType: chars(1, 100)
			.optional()
			.meta({ title: 'File Type', examples: ['image/'] })
			.describe('MIME type or its beginning, such as image/ or application/pdf'),
		conversationId: conversationId.optional(),
		...pageFields,
	}),
});
