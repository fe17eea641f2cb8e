import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { messageId } from '../formats';

export const getAttachmentLinkTool = defineTool({
	name: 'get_attachment_link',
	displayName: 'Get Attachment Link',
	operation: {
		value: 'getAttachment',
		name: 'Get Attachment',
		action: 'Get a message attachment',
		summary: "Get a 15-minute download link for a message's file, or the file",
	},
	resource: 'message',
	access: 'read',
	channel: 'qr',
	downloadsLink: true,
	description:
		'Returns a download link, valid for 15 minutes, for the file of one permitted message. Use a ' +
		'message whose attachment shows download_available true (in events: its stored_message_id). ' +
		'Business file downloads are not available through this tool.',
	input: z.strictObject({
		message_id: messageId
			.meta({ title: 'Saved Message ID' })
			.describe('The saved message whose file is marked as downloadable (its stored message ID in the trigger event)')
			.meta({ examples: ['msg_01HZX3K9Q2'] }),
	}),
});
