import { defineTool } from '../defineTool';
import { messageId } from '../formats';
import { writeInput } from '../shapes';

export const deleteMessageTool = defineTool({
	name: 'delete_message',
	displayName: 'Delete Message',
	resource: 'message',
	access: 'write',
	channel: 'qr',
	countsAsSend: true,
	description:
		'Deletes for everyone a message that the QR account sent. Irreversible. Counts against the ' +
		'shared QR send limits (5 per minute, 50 per day per number).',
	input: writeInput({
		targetMessageId: messageId.describe('Id of the message the QR account sent'),
	}),
});
