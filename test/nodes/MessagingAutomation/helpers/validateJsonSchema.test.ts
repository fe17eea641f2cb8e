import { describe, expect, it } from 'vitest';

import { validateAgainstSchema } from '../../../../nodes/MessagingAutomation/helpers/validateJsonSchema';

const schema = {
	type: 'object',
	additionalProperties: false,
	required: ['query', 'items'],
	properties: {
		query: { type: 'string', minLength: 1, maxLength: 10 },
		limit: { type: 'integer', minimum: 1, maximum: 100 },
		channel: { type: 'string', enum: ['qr', 'business'] },
		when: { type: 'string', format: 'date-time' },
		code: { type: 'string', pattern: '^[a-z]+$' },
		items: {
			type: 'array',
			minItems: 1,
			maxItems: 2,
			items: { type: 'object', required: ['phone'], properties: { phone: { type: 'string' } } },
		},
		either: { anyOf: [{ type: 'string' }, { type: 'object' }] },
	},
};

describe('validateAgainstSchema', () => {
	it('accepts a conforming input', () => {
		expect(
			validateAgainstSchema(schema, {
				query: 'hi',
				items: [{ phone: '1' }],
				either: {},
				when: '2026-10-01T09:30:00Z',
			}),
		).toEqual([]);
	});

	it('names every field and rule that fails', () => {
		const issues = validateAgainstSchema(schema, {
			query: '',
			limit: 0,
			channel: 'sms',
			when: 'tomorrow',
			code: 'ABC',
			items: [{ phone: '1' }, {}, { phone: 2 }],
			either: 3,
			extra: true,
		});
		expect(issues).toEqual([
			{ path: 'query', message: 'must be 1-10 characters' },
			{ path: 'limit', message: 'must be an integer from 1 to 100' },
			{ path: 'channel', message: 'must be one of: "qr", "business"' },
			{
				path: 'when',
				message: 'must be an ISO 8601 date-time with a timezone, e.g. 2026-10-01T09:30:00Z',
			},
			{ path: 'code', message: 'must match the pattern ^[a-z]+$' },
			{ path: 'items', message: 'must have 1-2 items' },
			{ path: 'items[1].phone', message: 'is required' },
			{ path: 'items[2].phone', message: 'must be a string' },
			{ path: 'either', message: 'must be a string' },
			{
				path: 'extra',
				message: expect.stringMatching(/^is not an accepted property; accepted: query, limit/),
			},
		]);
	});

	it('reports missing required fields and wrong types', () => {
		expect(validateAgainstSchema(schema, { items: 'x' })).toEqual([
			{ path: 'query', message: 'is required' },
			{ path: 'items', message: 'must be a list' },
		]);
	});
});
