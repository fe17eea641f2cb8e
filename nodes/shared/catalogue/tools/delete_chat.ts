import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { chars } from '../formats';
import { writeInput } from '../shapes';

export const deleteChatTool = defineTool({
	name: 'delete_chat',
	displayName: 'Delete Chat',
	resource: 'chat',
	access: 'write',
	ownerOnly: true,
	channel: 'qr',
	description:
		'Owner keys only. Permanently removes all saved messages, files and saved contact names of one QR ' +
		'chat from the service; nothing is deleted on the messaging network itself. With stopSaving, the ' +
		'person is also skipped (or the group unselected) so new messages are not saved again.',
	input: writeInput({
		conversationId: chars(1, 200)
			.describe('QR conversation id of the chat, e.g. <digits>@s.whatsapp.net or <digits>@g.us')
			.meta({ examples: ['4915112345678@s.whatsapp.net'] }),
		stopSaving: z.boolean().optional().describe('Also stop saving this chat from now on'),
	}),
});
