import { describe, expect, it } from 'vitest';
import { findTool } from '../../../../nodes/shared/catalogue';
import { formatIssues, validateToolInput } from '../../../../nodes/shared/catalogue/validate';
import type { ToolDefinition } from '../../../../nodes/shared/catalogue/types';
import { phone } from './specTable';

function tool(name: string): ToolDefinition {
	const definition = findTool(name);
	if (!definition) throw new Error(`${name} is missing from the catalogue`);
	return definition;
}

const recipient = (index: number) => ({
	phoneNumber: phone(index),
	consentSource: 'Website form',
	consentAt: '2026-10-01T09:30:00Z',
});

const recipientsInput = (recipients: unknown[]) => ({
	idempotencyKey: 'batch-0001',
	campaignId: '3f2b8c1e-0d4a-4e7b-9a51-6c2d9e8f1a00',
	recipients,
});

describe('validateToolInput', () => {
	it('returns the parsed data when the input is valid', () => {
		const input = recipientsInput([recipient(0)]);
		expect(validateToolInput(tool('add_campaign_recipients'), input)).toEqual({
			ok: true,
			data: input,
		});
	});

	it('names a nested field by its full path and states the rule', () => {
		const recipients = [0, 1, 2, 3].map(recipient);
		recipients[3] = { ...recipients[3], phoneNumber: '0049151' };
		expect(validateToolInput(tool('add_campaign_recipients'), recipientsInput(recipients))).toEqual(
			{
				ok: false,
				issues: [
					{ path: 'recipients[3].phoneNumber', message: 'must be 7-15 digits, first digit not 0' },
				],
			},
		);
	});

	it('reports every failing field at once, not just the first', () => {
		const result = validateToolInput(tool('edit_message'), { idempotencyKey: 'short', text: '' });
		expect(result.ok ? [] : result.issues.map((issue) => issue.path)).toEqual([
			'idempotencyKey',
			'targetMessageId',
			'text',
		]);
	});

	it('names each unknown property and lists the accepted ones at the top level', () => {
		const result = validateToolInput(tool('cancel_campaign'), {
			idempotencyKey: 'cancel-0001',
			campaignId: '3f2b8c1e-0d4a-4e7b-9a51-6c2d9e8f1a00',
			campaign_id: 'x',
			force: true,
		});
		expect(result).toEqual({
			ok: false,
			issues: [
				{
					path: 'campaign_id',
					message: 'is not an accepted property; accepted: idempotencyKey, campaignId',
				},
				{
					path: 'force',
					message: 'is not an accepted property; accepted: idempotencyKey, campaignId',
				},
			],
		});
	});

	it('names an unknown property inside a list element by its path', () => {
		const result = validateToolInput(
			tool('add_campaign_recipients'),
			recipientsInput([recipient(0), { ...recipient(1), name: 'Anna' }]),
		);
		expect(result).toEqual({
			ok: false,
			issues: [{ path: 'recipients[1].name', message: 'is not an accepted property' }],
		});
	});

	it('rejects anything but an object for the input as a whole', () => {
		for (const input of ['text', 42, null, [], undefined]) {
			const result = validateToolInput(tool('get_account_context'), input);
			expect(result.ok, String(input)).toBe(false);
			expect(result.ok ? [] : result.issues[0].path).toBe('');
		}
		expect(validateToolInput(tool('get_account_context'), 'text')).toEqual({
			ok: false,
			issues: [{ path: '', message: 'must be an object' }],
		});
	});

	it('accepts an empty object for tools without input and nothing else in it', () => {
		expect(validateToolInput(tool('get_business_health'), {})).toEqual({ ok: true, data: {} });
		expect(validateToolInput(tool('get_business_health'), { verbose: true })).toEqual({
			ok: false,
			issues: [{ path: 'verbose', message: 'is not an accepted property' }],
		});
	});
});

describe('formatIssues', () => {
	it('joins issues into one sentence-like line, naming the input as a whole "input"', () => {
		expect(
			formatIssues([
				{ path: 'recipients[3].phoneNumber', message: 'must be 7-15 digits, first digit not 0' },
				{ path: '', message: 'must be an object' },
			]),
		).toBe(
			'recipients[3].phoneNumber must be 7-15 digits, first digit not 0; input must be an object',
		);
	});

	it('gives an empty string for no issues', () => {
		expect(formatIssues([])).toBe('');
	});
});
