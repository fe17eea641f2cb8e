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

describe('add_number_filter: one number or many, no rule the spec does not state', () => {
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

	it('leaves to the service what the spec does not rule: both fields, neither, a name with a list', () => {
		// The spec lists both fields as optional and states no rule between them (issue 11, point 12).
		expect(issuesOf('add_number_filter', key)).toEqual([]);
		expect(
			issuesOf('add_number_filter', {
				...key,
				phoneNumber: '+49 151 1234567',
				phoneNumbers: ['+49 151 7654321'],
			}),
		).toEqual([]);
		expect(
			issuesOf('add_number_filter', { ...key, phoneNumbers: ['+49 151 1234567'], name: 'Team' }),
		).toEqual([]);
	});
});
