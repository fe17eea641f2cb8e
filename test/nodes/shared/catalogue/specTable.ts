/*
 * The spec's tool table restated as data, written from /work/shared/spec/messaging-api.md and NOT
 * read from the catalogue, so the tests compare two independent statements of the contract.
 * Rows marked `assumed` pin our choices where the spec says "not shown" (docs/assumptions.md).
 */

import { assumedRows } from './specAssumed';
import {
	boolean,
	CAMPAIGN,
	DATE_TIME,
	GROUP_JID,
	IDEMPOTENCY_KEY,
	integer,
	KEY,
	list,
	oneOf,
	phone,
	SEND_PHONE,
	string,
	TEMPLATE_NAME,
	UUID,
	WHEN,
} from './specRules';
import type { SpecRow } from './specRules';

export type { FieldRule, SpecRow } from './specRules';
export { phone } from './specRules';

const recipient = (index: number) => ({
	phoneNumber: phone(index),
	parameters: ['Anna'],
	consentSource: 'Website form',
	consentAt: WHEN,
});
const groupCall = (tool: string): SpecRow => ({
	tool,
	base: { idempotencyKey: KEY, jid: '120363025246125486@g.us', participants: [phone(0)] },
	required: ['idempotencyKey', 'jid', 'participants'],
	fields: {
		idempotencyKey: IDEMPOTENCY_KEY,
		jid: GROUP_JID,
		participants: list(1, 50, phone),
		'participants[0]': SEND_PHONE,
	},
});
const noInput = (tool: string): SpecRow => ({ tool, base: {}, required: [], fields: {} });
const FORM_CATEGORIES = [
	'SIGN_UP',
	'SIGN_IN',
	'APPOINTMENT_BOOKING',
	'LEAD_GENERATION',
	'CONTACT_US',
	'CUSTOMER_SUPPORT',
	'SURVEY',
	'OTHER',
];

export const SPEC_TABLE_TOOLS = [
	'add_campaign_recipients',
	'add_group_participants',
	'add_number_filter',
	'analyze_campaign_csv',
	'cancel_campaign',
	'check_recipient_send_options',
	'create_business_template',
	'create_campaign',
	'create_group',
	'create_messenger_form',
	'delete_chat',
	'delete_message',
	'demote_group_admins',
	'edit_message',
	'estimate_business_price',
	'forward_message',
	'get_account_context',
	'get_attachment_link',
	'get_business_account',
	'get_business_billing_context',
	'get_business_health',
	'get_business_messaging_analytics',
] as const;

/** Tools the spec describes in prose with shapes docs/assumptions.md assumes (Tool inputs). */
export const ASSUMED_TOOLS = ['get_operation', 'get_send_status', 'send_message'];

/** Named by the spec without shapes: the node assumes them and checks input against the live schema only. */
export const SHAPELESS_TOOLS = [
	'list_conversations',
	'get_messages',
	'search_messages',
	'search_attachments',
	'get_business_template',
	'get_business_pricing_analytics',
];

/** Every tool the spec documents: the tests that restate the spec cover these, a new tool adds to them. */
export const DOCUMENTED_TOOLS: readonly string[] = [
	...SPEC_TABLE_TOOLS,
	...ASSUMED_TOOLS,
	...SHAPELESS_TOOLS,
];

export const SPEC_ROWS: readonly SpecRow[] = [
	{
		tool: 'add_campaign_recipients',
		base: { idempotencyKey: KEY, campaignId: CAMPAIGN, recipients: [recipient(0)] },
		required: ['idempotencyKey', 'campaignId', 'recipients'],
		fields: {
			idempotencyKey: IDEMPOTENCY_KEY,
			campaignId: UUID,
			recipients: list(1, 500, recipient),
			'recipients[0].phoneNumber': SEND_PHONE,
			'recipients[0].parameters': list(0, 20, () => 'value'),
			'recipients[0].parameters[0]': string(1, 1024),
			'recipients[0].consentSource': string(1, 500),
			'recipients[0].consentAt': DATE_TIME,
		},
	},
	groupCall('add_group_participants'),
	{
		tool: 'add_number_filter',
		variant: 'one number',
		base: { idempotencyKey: KEY, phoneNumber: '+49 151 12345678' },
		required: ['idempotencyKey'],
		interdependent: ['phoneNumber'],
		// "name (string up to 120)": the lower bound 1 is our choice.
		fields: { idempotencyKey: IDEMPOTENCY_KEY, phoneNumber: string(7, 30), name: string(1, 120) },
	},
	{
		tool: 'add_number_filter',
		variant: 'many numbers',
		base: { idempotencyKey: KEY, phoneNumbers: ['1234567'] },
		required: ['idempotencyKey'],
		interdependent: ['phoneNumbers'],
		fields: {
			phoneNumbers: list(1, 100, (index) => `+49 151 ${String(index).padStart(7, '0')}`),
			'phoneNumbers[0]': string(7, 30),
		},
	},
	{
		tool: 'analyze_campaign_csv',
		base: { csv: 'phone,opt_in\n4915112345678,yes' },
		required: ['csv'],
		fields: { csv: string(1, 500_000), requiredTemplateVariables: integer(0, 20) },
	},
	{
		tool: 'cancel_campaign',
		base: { idempotencyKey: KEY, campaignId: CAMPAIGN },
		required: ['idempotencyKey', 'campaignId'],
		fields: { idempotencyKey: IDEMPOTENCY_KEY, campaignId: UUID },
	},
	{
		tool: 'check_recipient_send_options',
		base: {},
		required: [],
		fields: {
			channel: oneOf('qr', 'business'),
			conversationId: string(1, 250),
			phoneNumber: string(7, 30),
		},
	},
	{
		tool: 'create_business_template',
		base: {
			idempotencyKey: KEY,
			name: 'order_update',
			language: 'en_US',
			category: 'UTILITY',
			body: 'Hi {{1}}',
			bodyExamples: ['Anna'],
		},
		required: ['idempotencyKey', 'name', 'language', 'category', 'body'],
		fields: {
			idempotencyKey: IDEMPOTENCY_KEY,
			// The table says 1-512 chars; "lowercase with underscores" comes from the Business template section.
			name: TEMPLATE_NAME,
			language: string(2, 12),
			category: oneOf('UTILITY', 'MARKETING'),
			body: string(1, 1024),
			bodyExamples: list(0, 20, () => 'example'),
			'bodyExamples[0]': string(1, 1024),
			header: string(1, 60),
			footer: string(1, 60),
		},
	},
	{
		tool: 'create_campaign',
		base: {
			idempotencyKey: KEY,
			name: 'October',
			templateName: 'order_update',
			templateLanguage: 'en',
			maxMessages: 10,
		},
		required: ['idempotencyKey', 'name', 'templateName', 'templateLanguage', 'maxMessages'],
		fields: {
			idempotencyKey: IDEMPOTENCY_KEY,
			name: string(1, 120),
			templateName: TEMPLATE_NAME,
			templateLanguage: string(2, 12),
			maxMessages: integer(1, 1_000_000),
		},
	},
	{
		tool: 'create_group',
		base: { idempotencyKey: KEY, subject: 'Team', participants: [phone(0)] },
		required: ['idempotencyKey', 'subject', 'participants'],
		fields: {
			idempotencyKey: IDEMPOTENCY_KEY,
			subject: string(1, 100),
			participants: list(1, 50, phone),
			'participants[0]': SEND_PHONE,
		},
	},
	{
		tool: 'create_messenger_form',
		base: {
			idempotencyKey: KEY,
			name: 'Signup',
			categories: ['SIGN_UP'],
			definition: { version: '7.2', screens: [] },
		},
		required: ['idempotencyKey', 'name', 'categories', 'definition'],
		fields: {
			idempotencyKey: IDEMPOTENCY_KEY,
			form_id: string(1, 30),
			name: string(1, 200),
			categories: list(1, 3, (index) => FORM_CATEGORIES[index]),
			'categories[0]': oneOf(...FORM_CATEGORIES),
			definition: { kind: 'opaque' },
		},
	},
	{
		tool: 'delete_chat',
		base: { idempotencyKey: KEY, conversationId: '4915112345678@s.whatsapp.net' },
		required: ['idempotencyKey', 'conversationId'],
		fields: {
			idempotencyKey: IDEMPOTENCY_KEY,
			conversationId: string(1, 200),
			stopSaving: boolean,
		},
	},
	{
		tool: 'delete_message',
		base: { idempotencyKey: KEY, targetMessageId: 'msg_1' },
		required: ['idempotencyKey', 'targetMessageId'],
		fields: { idempotencyKey: IDEMPOTENCY_KEY, targetMessageId: string(1, 250) },
	},
	groupCall('demote_group_admins'),
	{
		tool: 'edit_message',
		base: { idempotencyKey: KEY, targetMessageId: 'msg_1', text: 'Fixed' },
		required: ['idempotencyKey', 'targetMessageId', 'text'],
		fields: {
			idempotencyKey: IDEMPOTENCY_KEY,
			targetMessageId: string(1, 250),
			text: string(1, 4096),
		},
	},
	{
		tool: 'estimate_business_price',
		base: { market: 'DE', currency: 'EUR', category: 'Marketing', messages: 1000 },
		required: ['market', 'currency', 'category', 'messages'],
		fields: {
			market: string(2, 5),
			currency: string(3, 3),
			category: oneOf(
				'Marketing',
				'Utility',
				'Authentication',
				'Authentication International',
				'Service',
			),
			messages: integer(1, 1_000_000_000),
			alreadyDelivered: integer(0, 1_000_000_000),
			customerServiceWindow: boolean,
			freeEntryPointWindow: boolean,
		},
	},
	{
		tool: 'forward_message',
		base: { idempotencyKey: KEY, phoneNumber: phone(1), sourceMessageId: 'msg_1' },
		required: ['idempotencyKey', 'phoneNumber', 'sourceMessageId'],
		fields: {
			idempotencyKey: IDEMPOTENCY_KEY,
			phoneNumber: SEND_PHONE,
			sourceMessageId: string(1, 250),
		},
	},
	noInput('get_account_context'),
	{
		tool: 'get_attachment_link',
		base: { message_id: 'msg_1' },
		required: ['message_id'],
		fields: { message_id: string(1, 250) },
	},
	noInput('get_business_account'),
	noInput('get_business_billing_context'),
	noInput('get_business_health'),
	{
		tool: 'get_business_messaging_analytics',
		base: {},
		required: [],
		fields: { days: integer(1, 90) },
	},
	...assumedRows(),
];
