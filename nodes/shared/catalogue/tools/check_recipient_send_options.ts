import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { channel, chars, filterPhone } from '../formats';

export const checkRecipientSendOptionsTool = defineTool({
	name: 'check_recipient_send_options',
	displayName: 'Check Recipient Send Options',
	operation: {
		value: 'checkRecipient',
		name: 'Check Recipient',
		action: 'Check whether a recipient can be messaged',
		summary: 'Whether a number or chat can get a message now, and on which terms',
	},
	resource: 'message',
	access: 'read',
	channel: 'input',
	description:
		'Reports whether the connection is ready, whether the number passes workspace filters, whether ' +
		'history exists, and whether a Business reply is inside the 24-hour window or needs an approved ' +
		'template. Use it before send_message. It does not prove that the number is registered or opted in.',
	input: z.strictObject({
		channel: channel.optional(),
		conversationId: chars(1, 250)
			.optional()
			.meta({ title: 'Conversation ID' })
			.describe('The chat, exactly as a trigger event or another operation gave it')
			.meta({ examples: ['4915112345678@s.whatsapp.net'] }),
		phoneNumber: filterPhone.optional(),
	}),
});
