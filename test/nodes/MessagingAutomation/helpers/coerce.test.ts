import { describe, expect, it } from 'vitest';

import { coerceToSchema, scalarText } from '../../../../nodes/MessagingAutomation/helpers/coerce';

describe('coerceToSchema', () => {
	it('turns editor and expression values into the schema types', () => {
		expect(coerceToSchema('42', { type: 'integer' })).toEqual({ value: 42 });
		expect(coerceToSchema('4x', { type: 'integer' })).toEqual({ value: '4x' });
		expect(coerceToSchema(4915112345678, { type: 'string' })).toEqual({ value: '4915112345678' });
		expect(coerceToSchema('true', { type: 'boolean' })).toEqual({ value: true });
		expect(coerceToSchema('2026-10-01T09:30:00', { type: 'string', format: 'date-time' })).toEqual({
			value: '2026-10-01T09:30:00Z',
		});
		expect(
			coerceToSchema(new Date(Date.UTC(2026, 9, 1)), { type: 'string', format: 'date-time' }),
		).toEqual({ value: '2026-10-01T00:00:00.000Z' });
		expect(
			coerceToSchema(
				{ toISO: () => '2026-10-01T09:30:00.000+02:00' },
				{ type: 'string', format: 'date-time' },
			),
		).toEqual({
			value: '2026-10-01T09:30:00.000+02:00',
		});
	});

	it('reads lists from arrays, JSON arrays, lines or commas', () => {
		const list = { type: 'array', items: { type: 'string' } };
		expect(coerceToSchema('a, b ,c', list)).toEqual({ value: ['a', 'b', 'c'] });
		expect(coerceToSchema('Smith, Anna\nBob', list)).toEqual({ value: ['Smith, Anna', 'Bob'] });
		expect(coerceToSchema('["x, y", "z"]', list)).toEqual({ value: ['x, y', 'z'] });
		expect(coerceToSchema([1, '', 2], list)).toEqual({ value: ['1', '2'] });
		expect(coerceToSchema('[broken', list)).toEqual({
			issue: expect.stringMatching(/must be a list/),
		});
		expect(coerceToSchema('', list)).toEqual({ value: undefined });
	});

	it('parses JSON fields, keeping text where the schema accepts text', () => {
		const objectOrText = { anyOf: [{ type: 'object' }, { type: 'string' }] };
		expect(coerceToSchema('{"a":1}', { type: 'object' })).toEqual({ value: { a: 1 } });
		expect(coerceToSchema('{"a":', { type: 'object' })).toEqual({ issue: 'is not valid JSON' });
		expect(coerceToSchema('{"a":1}', objectOrText)).toEqual({ value: { a: 1 } });
		expect(coerceToSchema('plain words', objectOrText)).toEqual({ value: 'plain words' });
	});

	it('leaves out empty values', () => {
		expect(coerceToSchema('  ', { type: 'string' })).toEqual({ value: undefined });
		expect(coerceToSchema(null, { type: 'integer' })).toEqual({ value: undefined });
	});

	it('never writes "NaN", "Infinity", "[object Object]" or "null" as text, and never calls an object\'s own toString', () => {
		const list = { type: 'array', items: { type: 'string' } };
		const ownToString = { toString: 1 }; // String() of this throws "Cannot convert object to primitive value"
		expect(coerceToSchema(Number.NaN, { type: 'string' })).toEqual({
			issue: 'must be text, not NaN',
		});
		expect(coerceToSchema(Number.POSITIVE_INFINITY, { type: 'string' })).toEqual({
			issue: 'must be text, not Infinity',
		});
		expect(coerceToSchema(ownToString, { type: 'string' })).toEqual({ value: ownToString });
		expect(coerceToSchema([{ a: 1 }], list)).toEqual({
			issue: 'must be a list of texts; item 1 is an object',
		});
		expect(coerceToSchema(['a', ownToString], list)).toEqual({
			issue: 'must be a list of texts; item 2 is an object',
		});
		expect(coerceToSchema([1, Number.NaN], list)).toEqual({
			issue: 'must be a list of texts; item 2 is NaN',
		});
		expect(coerceToSchema(ownToString, list)).toEqual({
			issue: 'must be a list of texts, not an object',
		});
		expect(coerceToSchema([null, 'a', null], list)).toEqual({ value: ['a'] });
		expect(coerceToSchema('Infinity', { type: 'number' })).toEqual({ value: 'Infinity' });
		expect(coerceToSchema(new Date(Number.NaN), { type: 'string', format: 'date-time' })).toEqual({
			value: new Date(Number.NaN),
		});
	});

	it('reads scalars only', () => {
		expect([scalarText('a'), scalarText(1.5), scalarText(false), scalarText(10n)]).toEqual([
			'a',
			'1.5',
			'false',
			'10',
		]);
		expect([scalarText(Number.NaN), scalarText(null), scalarText({}), scalarText([])]).toEqual([
			undefined,
			undefined,
			undefined,
			undefined,
		]);
	});
});
