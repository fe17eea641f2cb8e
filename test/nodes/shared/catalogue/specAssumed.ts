import {
	IDEMPOTENCY_KEY,
	list,
	oneOf,
	phone,
	SEND_PHONE,
	string,
	TEMPLATE_NAME,
} from './specRules';
import type { SpecRow } from './specRules';

/** Entries whose shapes the spec does not show: our choices, pinned so changes are deliberate. */
export function assumedRows(): SpecRow[] {
	const textBase = { phoneNumber: phone(0), text: 'Hi' };
	return [
		{
			tool: 'send_message',
			variant: 'text to a phone number',
			base: textBase,
			required: [],
			interdependent: ['phoneNumber', 'text'],
			fields: {
				channel: oneOf('qr', 'business'),
				phoneNumber: SEND_PHONE,
				text: string(1, 4096),
				replyToMessageId: string(1, 250),
				idempotencyKey: IDEMPOTENCY_KEY,
			},
			assumed: true,
		},
		{
			tool: 'send_message',
			variant: 'text into a conversation',
			base: { conversationId: '120363025246125486@g.us', text: 'Hi' },
			required: [],
			interdependent: ['conversationId', 'text'],
			fields: { conversationId: string(1, 250) },
			assumed: true,
		},
		{
			tool: 'send_message',
			variant: 'Business template',
			base: {
				channel: 'business',
				phoneNumber: phone(0),
				templateName: 'order_update',
				templateLanguage: 'en',
				templateParameters: ['Anna'],
				recipientOptInConfirmed: true,
			},
			required: [],
			interdependent: [
				'channel',
				'phoneNumber',
				'templateName',
				'templateLanguage',
				'recipientOptInConfirmed',
			],
			fields: {
				templateName: TEMPLATE_NAME,
				templateLanguage: string(2, 12),
				templateParameters: list(0, 20, () => 'value'),
				'templateParameters[0]': string(1, 1024),
				recipientOptInConfirmed: { kind: 'literalTrue' },
			},
			assumed: true,
		},
		{
			tool: 'get_operation',
			base: { operation_id: 'op_1' },
			required: [],
			interdependent: ['operation_id'],
			fields: { operation_id: string(1, 250), idempotencyKey: IDEMPOTENCY_KEY },
			assumed: true,
		},
		{
			tool: 'get_send_status',
			base: { message_id: 'msg_1' },
			required: [],
			interdependent: ['message_id'],
			fields: { message_id: string(1, 250), idempotencyKey: IDEMPOTENCY_KEY },
			assumed: true,
		},
	];
}
