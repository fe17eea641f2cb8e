import { describe, expect, it } from 'vitest';
import { findTool } from '../../../../nodes/shared/catalogue';
import { validateToolInput } from '../../../../nodes/shared/catalogue/validate';
import type { ToolDefinition } from '../../../../nodes/shared/catalogue/types';

/* The alternative-field rules as the tools apply them (send_message has its own file). */

function tool(name: string): ToolDefinition {
	const definition = findTool(name);
	if (!definition) throw new Error(`${name} is missing from the catalogue`);
	return definition;
}
const issuesOf = (name: string, input: unknown) => {
	const result = validateToolInput(tool(name), input);
	return result.ok ? [] : result.issues;
};

describe('lookups by one of two identifiers (get_operation, get_send_status)', () => {
	it.each([
		['get_operation', { operation_id: 'op_1' }],
		['get_operation', { idempotencyKey: 'evt_123456' }],
		['get_operation', { operation_id: 'op_1', idempotencyKey: 'evt_123456' }],
		['get_send_status', { message_id: 'msg_1' }],
		['get_send_status', { idempotencyKey: 'evt_123456' }],
	])('%s accepts %j', (name, input) => {
		expect(issuesOf(name, input)).toEqual([]);
	});

	it.each([
		['get_operation', 'operation_id is required unless idempotencyKey is given'],
		['get_send_status', 'message_id is required unless idempotencyKey is given'],
	])('%s needs at least one identifier', (name, text) => {
		const [path, ...rest] = text.split(' ');
		expect(issuesOf(name, {})).toEqual([{ path, message: rest.join(' ') }]);
	});
});

describe('add_number_filter: one number or many', () => {
	const key = { idempotencyKey: 'filter-0001' };

	it('accepts a single labelled number or a list', () => {
		expect(
			issuesOf('add_number_filter', { ...key, phoneNumber: '+49 151 1234567', name: 'Support' }),
		).toEqual([]);
		expect(
			issuesOf('add_number_filter', {
				...key,
				phoneNumbers: ['+49 151 1234567', '+49 151 7654321'],
			}),
		).toEqual([]);
	});

	it('needs one of phoneNumber or phoneNumbers, not both', () => {
		expect(issuesOf('add_number_filter', key)).toEqual([
			{ path: 'phoneNumber', message: 'is required unless phoneNumbers is given' },
		]);
		expect(
			issuesOf('add_number_filter', {
				...key,
				phoneNumber: '+49 151 1234567',
				phoneNumbers: ['+49 151 7654321'],
			}),
		).toEqual([
			{
				path: 'phoneNumbers',
				message:
					'must not be given together with phoneNumber; give only one of phoneNumber, phoneNumbers',
			},
		]);
	});

	it('allows a name only as the label of a single number', () => {
		expect(
			issuesOf('add_number_filter', { ...key, phoneNumbers: ['+49 151 1234567'], name: 'Team' }),
		).toEqual([{ path: 'name', message: 'is only allowed together with phoneNumber' }]);
	});
});
