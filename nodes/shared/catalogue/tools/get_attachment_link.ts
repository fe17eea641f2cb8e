import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { messageId } from '../formats';

export const getAttachmentLinkTool = defineTool({
	name: 'get_attachment_link',
	displayName: 'Get Attachment Link',
	resource: 'message',
	access: 'read',
	channel: 'qr',
	description:
		'Returns a download link, valid for 15 minutes, for the file of one permitted message. Use a ' +
		'message whose attachment shows download_available true (in events: its stored_message_id). ' +
		'Business file downloads are not available through this tool.',
	input: z.strictObject({
		message_id: messageId
			.describe('Stored message id whose attachment is downloadable')
			.meta({ examples: ['msg_01HZX3K9Q2'] }),
	}),
});
