import { z } from 'zod/v4';
import { crossFieldRules, equalsWhen, oneOf, onlyWith, requiredWith } from '../crossField';
import { defineTool } from '../defineTool';
import {
	channel,
	chars,
	idempotencyKey,
	messageId,
	sendPhone,
	templateLanguage,
	templateName,
	templateParameters,
} from '../formats';

/** The choice between a phone number and a conversation: Send and Wait asks for it the same way. */
export const RECIPIENT_CHOICE = 'sendTo';

const TEMPLATE_ONLY_FIELDS = [
	'templateLanguage',
	'templateParameters',
	'recipientOptInConfirmed',
] as const;

/*
 * The spec names these fields in prose only; their bounds reuse the matching bounds of the
 * table (text as edit_message, template fields as create_campaign and add_campaign_recipients).
 */
export const sendMessageTool = defineTool({
	name: 'send_message',
	displayName: 'Send Message',
	operation: {
		value: 'send',
		name: 'Send',
		action: 'Send a message',
		summary: 'Send a text or an approved template to a number or a chat',
		default: true,
	},
	resource: 'message',
	layout: {
		primary: ['channel'],
		choices: [
			{
				parameter: RECIPIENT_CHOICE,
				displayName: 'To',
				description: 'Who gets the message',
				options: [
					{
						field: 'phoneNumber',
						name: 'Phone Number',
						description: 'A phone number, for a one-to-one chat',
					},
					{
						field: 'conversationId',
						name: 'Conversation',
						description: 'An existing chat, one-to-one or group, by its conversation ID',
					},
				],
			},
			{
				parameter: 'messageType',
				displayName: 'Message Type',
				description: 'Free text, or an approved Business template',
				options: [
					{
						field: 'text',
						name: 'Text',
						description: "On Business, only within 24 hours of the customer's last message",
					},
					{
						field: 'templateName',
						name: 'Template',
						description: 'An approved Business template, at any time',
						with: TEMPLATE_ONLY_FIELDS,
					},
				],
			},
		],
	},
	access: 'write',
	channel: 'input',
	countsAsSend: true,
	freeTextWindow: true,
	description:
		'Sends a text, or a Business template, to a phone number or into an existing conversation ' +
		'(one-to-one or group). Give phoneNumber or conversationId, and text or templateName. Templates ' +
		'need channel business, templateLanguage and recipientOptInConfirmed true. A free-form Business ' +
		'message needs an incoming customer message within the last 24 hours (see ' +
		'check_recipient_send_options). QR sends, group messages included, count against 5 per minute ' +
		'and 50 per day per number. The result status accepted is not a confirmed delivery; use ' +
		'get_send_status. Retry only with the same idempotency key.',
	input: z
		.strictObject({
			channel: channel.optional(),
			phoneNumber: sendPhone
				.optional()
				.describe(
					"Recipient's phone number: digits only, international format, no + (7-15 digits, no spaces)",
				),
			conversationId: chars(1, 250)
				.optional()
				.meta({ title: 'Conversation ID' })
				.describe(
					'An existing chat (one-to-one or group), exactly as a trigger event or another operation gave it',
				)
				.meta({ examples: ['120363025246125486@g.us'] }),
			text: chars(1, 4096)
				.optional()
				.meta({ title: 'Text' })
				.describe('Message text, 1-4096 characters'),
			templateName: templateName
				.optional()
				.meta({ title: 'Template Name' })
				.describe('An approved Business template: lowercase letters, digits and underscores'),
			templateLanguage: templateLanguage.optional(),
			templateParameters: templateParameters.optional(),
			recipientOptInConfirmed: z
				.literal(true)
				.optional()
				.meta({ title: 'Recipient Opted In' })
				.describe(
					'Whether you confirm the recipient opted in to messages from you; must be on to send a template',
				),
			replyToMessageId: messageId
				.optional()
				.meta({ title: 'Reply To Message ID' })
				.describe('A message to quote, so this one reads as its reply'),
			idempotencyKey: idempotencyKey
				.optional()
				.describe(
					'Idempotency key; may also be sent as the Idempotency-Key header (the body wins)',
				),
		})
		.check(
			crossFieldRules(
				oneOf(['phoneNumber', 'conversationId'], { exclusive: true }),
				oneOf(['text', 'templateName'], { exclusive: true }),
				...TEMPLATE_ONLY_FIELDS.map((field) => onlyWith(field, 'templateName')),
				requiredWith('templateLanguage', 'templateName'),
				requiredWith('recipientOptInConfirmed', 'templateName', 'must be true'),
				equalsWhen('channel', 'business', 'templateName', 'templates always use Business'),
			),
		),
});
