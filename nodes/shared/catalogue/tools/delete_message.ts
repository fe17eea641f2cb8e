import { defineTool } from '../defineTool';
import { messageId } from '../formats';
import { writeInput } from '../shapes';

export const deleteMessageTool = defineTool({
	name: 'delete_message',
	displayName: 'Delete Message',
	operation: {
		value: 'delete',
		name: 'Delete',
		action: 'Delete a message',
		summary: 'Delete a message sent from the QR number, for everyone',
	},
	resource: 'message',
	access: 'write',
	channel: 'qr',
	countsAsSend: true,
	description:
		'Deletes for everyone a message that the QR account sent. Irreversible. Counts against the ' +
		'shared QR send limits (5 per minute, 50 per day per number).',
	input: writeInput({
		targetMessageId: messageId.describe('The message the QR number sent'),
	}),
});
