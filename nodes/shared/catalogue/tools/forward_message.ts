import { defineTool } from '../defineTool';
import { messageId, sendPhone } from '../formats';
import { writeInput } from '../shapes';

export const forwardMessageTool = defineTool({
	name: 'forward_message',
	displayName: 'Forward Message',
	resource: 'message',
	access: 'write',
	channel: 'qr',
	countsAsSend: true,
	description:
		'Forwards a stored one-to-one QR message to another person. Counts against the shared QR send ' +
		'limits (5 per minute, 50 per day per number). Acceptance is not confirmed delivery.',
	input: writeInput({
		phoneNumber: sendPhone.describe('Recipient: international format, digits only'),
		sourceMessageId: messageId.describe('Stored one-to-one message to forward'),
	}),
});
