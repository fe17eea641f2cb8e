import { defineTool } from '../defineTool';
import { chars, messageId } from '../formats';
import { writeInput } from '../shapes';

export const editMessageTool = defineTool({
	name: 'edit_message',
	displayName: 'Edit Message',
	operation: {
		value: 'edit',
		name: 'Edit',
		action: 'Edit a message',
		summary: 'Replace the text of a message the QR number sent a short while ago',
	},
	resource: 'message',
	access: 'write',
	channel: 'qr',
	countsAsSend: true,
	description:
		'Replaces the text of a message that the QR account sent; only allowed for a short time after ' +
		'sending. Counts against the shared QR send limits (5 per minute, 50 per day per number).',
	input: writeInput({
		targetMessageId: messageId.describe('The message the QR number sent'),
		text: chars(1, 4096).describe('New text, 1-4096 characters'),
	}),
});
