import { describe, expect, it } from 'vitest';

import { parseToolListing, schemaHasProperty } from '../../../../nodes/shared/client/toolListing';

const schema = { type: 'object', properties: { text: { type: 'string' } } };

describe('parseToolListing accepts every plausible layout', () => {
	it.each([
		[
			'the planned layout',
			{
				tools: [{ name: 'send_message', description: 'd', access: 'write', input_schema: schema }],
			},
		],
		[
			'a bare array with inputSchema',
			[{ name: 'send_message', description: 'd', access: 'write', inputSchema: schema }],
		],
		[
			'data with parameters',
			{ data: [{ name: 'send_message', description: 'd', access: 'write', parameters: schema }] },
		],
		[
			'nested data.tools with schema',
			{ data: { tools: [{ name: 'send_message', description: 'd', access: 'write', schema }] } },
		],
		[
			'a schema sent as JSON text',
			{
				tools: [
					{
						name: 'send_message',
						description: 'd',
						access: 'write',
						input_schema: JSON.stringify(schema),
					},
				],
			},
		],
		[
			'MCP style with annotations',
			{
				tools: [
					{
						name: 'send_message',
						description: 'd',
						inputSchema: schema,
						annotations: { readOnlyHint: false },
					},
				],
			},
		],
		[
			'OpenAI function style',
			[
				{
					type: 'function',
					function: { name: 'send_message', description: 'd', parameters: schema },
					access: 'write',
				},
			],
		],
		[
			'a map keyed by name',
			{ send_message: { description: 'd', access: 'write', input_schema: schema } },
		],
	])('%s', (_name, body) => {
		expect(parseToolListing(body)).toEqual([
			{ name: 'send_message', description: 'd', access: 'write', inputSchema: schema },
		]);
	});

	it('reads access from read_only/readOnly booleans and kind', () => {
		expect(
			parseToolListing([
				{ name: 'a', read_only: true },
				{ name: 'b', readOnly: false },
				{ name: 'c', kind: 'read' },
				{ name: 'd', type: 'object' },
			]),
		).toEqual([
			{ name: 'a', access: 'read' },
			{ name: 'b', access: 'write' },
			{ name: 'c', access: 'read' },
			{ name: 'd' },
		]);
	});

	it('takes plain names, skips entries without a name, keeps the first of duplicates', () => {
		expect(
			parseToolListing({
				tools: [
					'get_business_health',
					{ description: 'nameless' },
					42,
					null,
					{ name: '' },
					{ name: 'get_business_health', description: 'second' },
				],
			}),
		).toEqual([{ name: 'get_business_health' }]);
	});

	it('drops a schema that is not JSON, and returns nothing for nonsense', () => {
		expect(parseToolListing({ tools: [{ name: 'x', input_schema: 'not json' }] })).toEqual([
			{ name: 'x' },
		]);
		for (const body of [undefined, null, 'text', 7, {}, { tools: [] }, { tools: 'x' }])
			expect(parseToolListing(body)).toEqual([]);
	});
});

describe('schemaHasProperty', () => {
	it('finds top-level properties only', () => {
		expect(schemaHasProperty({ properties: { idempotencyKey: {} } }, 'idempotencyKey')).toBe(true);
		expect(
			schemaHasProperty(
				{ properties: { nested: { properties: { idempotencyKey: {} } } } },
				'idempotencyKey',
			),
		).toBe(false);
		expect(schemaHasProperty(undefined, 'idempotencyKey')).toBe(false);
	});
});
