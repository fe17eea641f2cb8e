import { defineTool } from '../defineTool';
import { messageId, sendPhone } from '../formats';
import { writeInput } from '../shapes';

export const forwardMessageTool = defineTool({
	name: 'forward_message',
	displayName: 'Forward Message',
	operation: {
		value: 'forward',
		name: 'Forward',
		action: 'Forward a message',
		summary: 'Forward a saved one-to-one QR message to another person',
	},
	resource: 'message',
	access: 'write',
	channel: 'qr',
	countsAsSend: true,
	description:
		'Forwards a stored one-to-one QR message to another person. Counts against the shared QR send ' +
		'limits (5 per minute, 50 per day per number). Acceptance is not confirmed delivery.',
	input: writeInput({
		phoneNumber: sendPhone.describe(
			"Recipient's phone number: digits only, international format, no + (7-15 digits, no spaces)",
		),
		sourceMessageId: messageId.describe('The saved one-to-one message to forward'),
	}),
});
