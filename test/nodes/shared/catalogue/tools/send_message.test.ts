import { describe, expect, it } from 'vitest';
import { sendMessageTool } from '../../../../../nodes/shared/catalogue/tools/send_message';
import { validateToolInput } from '../../../../../nodes/shared/catalogue/validate';

/* Cross-field rules from the spec prose (and our stated assumptions about them). */

const template = {
	channel: 'business',
	phoneNumber: '4915112345678',
	templateName: 'order_update',
	templateLanguage: 'en',
	recipientOptInConfirmed: true,
};

const issuesOf = (input: unknown) => {
	const result = validateToolInput(sendMessageTool, input);
	return result.ok ? [] : result.issues;
};

describe('send_message', () => {
	it.each([
		['a QR text to a phone number', { channel: 'qr', phoneNumber: '4915112345678', text: 'Hi' }],
		[
			'a text into a group conversation without a channel',
			{ conversationId: '120363025246125486@g.us', text: 'Hi' },
		],
		[
			'a reply with an idempotency key',
			{
				phoneNumber: '4915112345678',
				text: 'Hi',
				replyToMessageId: 'm1',
				idempotencyKey: 'evt_123456',
			},
		],
		['a Business template', template],
		['a Business template with parameters', { ...template, templateParameters: ['Anna', '42'] }],
	])('accepts %s', (_title, input) => {
		expect(issuesOf(input)).toEqual([]);
	});

	it.each([
		['no recipient', { text: 'Hi' }, 'phoneNumber', 'is required unless conversationId is given'],
		[
			'no content',
			{ phoneNumber: '4915112345678' },
			'text',
			'is required unless templateName is given',
		],
		[
			'both recipients',
			{ phoneNumber: '4915112345678', conversationId: '4915112345678@s.whatsapp.net', text: 'Hi' },
			'conversationId',
			'must not be given together with phoneNumber; give only one of phoneNumber, conversationId',
		],
		[
			'text and a template',
			{ ...template, text: 'Hi' },
			'templateName',
			'must not be given together with text; give only one of text, templateName',
		],
		[
			'a template on the QR channel',
			{ ...template, channel: 'qr' },
			'channel',
			"must be 'business' when templateName is given (templates always use Business)",
		],
		[
			'a template without a channel',
			{ ...template, channel: undefined },
			'channel',
			"must be 'business' when templateName is given (templates always use Business)",
		],
		[
			'a template without opt-in confirmation',
			{ ...template, recipientOptInConfirmed: undefined },
			'recipientOptInConfirmed',
			'must be true when templateName is given',
		],
		[
			'a template with opt-in false',
			{ ...template, recipientOptInConfirmed: false },
			'recipientOptInConfirmed',
			'must be true',
		],
		[
			'a template without a language',
			{ ...template, templateLanguage: undefined },
			'templateLanguage',
			'is required when templateName is given',
		],
		[
			'template parameters on a text',
			{ phoneNumber: '4915112345678', text: 'Hi', templateParameters: ['x'] },
			'templateParameters',
			'is only allowed together with templateName',
		],
		[
			'opt-in confirmation on a text',
			{ phoneNumber: '4915112345678', text: 'Hi', recipientOptInConfirmed: true },
			'recipientOptInConfirmed',
			'is only allowed together with templateName',
		],
	])('rejects %s, naming the field', (_title, input, path, message) => {
		expect(issuesOf(JSON.parse(JSON.stringify(input)))).toContainEqual({ path, message });
	});

	it('reports a rule-breaking field before cross-field rules', () => {
		expect(issuesOf({ phoneNumber: '0151', text: 'Hi' })).toEqual([
			{ path: 'phoneNumber', message: 'must be 7-15 digits, first digit not 0' },
		]);
	});
});
