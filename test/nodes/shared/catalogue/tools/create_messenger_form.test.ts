import { describe, expect, it } from 'vitest';
import { createMessengerFormTool } from '../../../../../nodes/shared/catalogue/tools/create_messenger_form';
import { validateToolInput } from '../../../../../nodes/shared/catalogue/validate';

const flow = { version: '7.2', screens: [{ id: 'WELCOME', title: 'Welcome' }] };
const withDefinition = (definition: unknown) => ({
	idempotencyKey: 'form-0001',
	name: 'Signup',
	categories: ['SIGN_UP'],
	definition,
});

const definitionIssue = (definition: unknown) => {
	const result = validateToolInput(createMessengerFormTool, withDefinition(definition));
	return result.ok
		? undefined
		: result.issues.find((issue) => issue.path === 'definition')?.message;
};

/** A JSON object text of exactly `length` characters. */
const jsonOfLength = (length: number) => {
	const frame = JSON.stringify({ version: '7.2', padding: '' });
	return JSON.stringify({ version: '7.2', padding: 'x'.repeat(length - frame.length) });
};

describe('create_messenger_form definition', () => {
	it('accepts the flow as an object, keeping its content for the provider to check', () => {
		const result = validateToolInput(createMessengerFormTool, withDefinition(flow));
		expect(result).toEqual({ ok: true, data: withDefinition(flow) });
	});

	it('accepts the flow as a JSON string of up to 1,000,000 characters', () => {
		expect(jsonOfLength(1_000_000)).toHaveLength(1_000_000);
		expect(definitionIssue(JSON.stringify(flow))).toBeUndefined();
		expect(definitionIssue(jsonOfLength(1_000_000))).toBeUndefined();
	});

	it('rejects a JSON string of 1,000,001 characters', () => {
		expect(definitionIssue(jsonOfLength(1_000_001))).toBe('must be at most 1000000 characters');
	});

	it.each(['not json', '[1, 2]', '"text"', 'null', ''])(
		'rejects the string %j as not holding a JSON object',
		(text) => {
			expect(definitionIssue(text)).toBe('must be a string holding a JSON object');
		},
	);

	it.each([42, true, [flow], null])('rejects %j', (definition) => {
		expect(definitionIssue(definition)).toBe('must be a flow JSON object or a string holding one');
	});

	it('requires it', () => {
		expect(definitionIssue(undefined)).toBe('is required');
	});
});
