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
	resource: 'message',
	access: 'write',
	channel: 'input',
	countsAsSend: true,
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
			phoneNumber: sendPhone.optional().describe('Recipient in international format, digits only'),
			conversationId: chars(1, 250)
				.optional()
				.describe(
					'Existing conversation (one-to-one or group) to write into, exactly as another tool or event gave it',
				)
				.meta({ examples: ['120363025246125486@g.us'] }),
			text: chars(1, 4096).optional().describe('Message text, 1-4096 characters'),
			templateName: templateName
				.optional()
				.describe(
					'Approved Business template to send instead of text: lowercase letters, digits, underscores',
				),
			templateLanguage: templateLanguage.optional(),
			templateParameters: templateParameters.optional(),
			recipientOptInConfirmed: z
				.literal(true)
				.optional()
				.describe('Must be true when sending a template: you confirm the recipient opted in'),
			replyToMessageId: messageId
				.optional()
				.describe('Message to quote as the one this replies to'),
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
