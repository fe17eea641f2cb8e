import { z } from 'zod/v4';
import { defineTool } from '../defineTool';
import { chars } from '../formats';
import { writeInput } from '../shapes';

export const deleteChatTool = defineTool({
	name: 'delete_chat',
	displayName: 'Delete Chat',
	operation: {
		value: 'delete',
		name: 'Delete',
		action: 'Delete a chat',
		summary: "Remove a QR chat's saved messages and files from the service",
	},
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
			.meta({ title: 'Conversation ID' })
			.describe('The QR chat, exactly as a trigger event or another operation gave it')
			.meta({ examples: ['4915112345678@s.whatsapp.net'] }),
		stopSaving: z
			.boolean()
			.optional()
			.meta({ title: 'Stop Saving' })
			.describe('Whether to also stop saving this chat from now on'),
	}),
});
