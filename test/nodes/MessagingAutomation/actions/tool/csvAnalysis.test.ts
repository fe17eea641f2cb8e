import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { useHarness } from '../../harness';

/*
 * analyze_campaign_csv from input items (RFC 4180 quoting), from a CSV string and from a binary
 * file; lists over 3,000 rows are split across calls and the findings merged with row numbers
 * counted over the whole list.
 */

const h = useHarness();

const fromItems: INodeParameters = {
	resource: 'campaign',
	operation: 'analyzeCsv',
	inputMode: 'csvItems',
	csvPhone: '={{ $json.phone }}',
	csvOptIn: '={{ $json.opt_in }}',
	csvParameters: '={{ $json.params }}',
	additionalFields: { requiredTemplateVariables: 2 },
	simplify: false,
};

describe('CSV analysis', () => {
	it('builds the CSV from items with RFC 4180 quoting, one answer paired with every item', async () => {
		const items = [
			{ phone: '4915112345678', opt_in: 'yes', params: ['Smith, Anna', 'say "hi"'] },
			{ phone: '447700900123', opt_in: 'no', params: ['Bob\nJr.', '1044'] },
		];
		const result = await h.run({ parameters: fromItems }, items);
		expect(result.error).toBeUndefined();
		expect((result.calls[0].input as { csv: string }).csv).toBe(
			'phone,opt_in,param_1,param_2\r\n4915112345678,yes,"Smith, Anna","say ""hi"""\r\n447700900123,no,"Bob\nJr.",1044',
		);
		expect(result.json[0]).toMatchObject({ rows: 2, valid_rows: 2, parts: 1 });
		expect(result.output[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('splits 3,200 item rows at 3,000 and merges the findings over the whole list', async () => {
		const rows = Array.from({ length: 3200 }, (_, index) => ({
			phone: `4917${String(index).padStart(8, '0')}`,
			opt_in: 'yes',
			params: ['a', 'b'],
		}));
		rows[3100] = { ...rows[3100], phone: '0123' };
		rows[3199] = { ...rows[3199], phone: rows[10].phone };
		const result = await h.run({ parameters: fromItems }, rows);
		expect(result.error).toBeUndefined();
		expect(
			result.calls.map((call) => (call.input as { csv: string }).csv.split('\r\n').length - 1),
		).toEqual([3000, 200]);
		const report = result.json[0];
		expect(report).toMatchObject({ parts: 2, rows: 3200, invalid_rows: 1 });
		expect(report.columns).toEqual(['phone', 'opt_in', 'param_1', 'param_2']);
		expect(report.issues).toContainEqual({
			row: 3101,
			column: 'phone',
			message: expect.stringMatching(/international number/),
		});
		// The repeat of row 11 sits in the other part: found by the node, not by either call.
		expect(report.duplicatesAcrossParts).toEqual([{ phone: rows[10].phone, rows: [11, 3200] }]);
		const countries = report.candidate_countries as IDataObject[];
		expect(countries.filter((country) => country.calling_code === '49')).toEqual([
			expect.objectContaining({ rows: 3199 }),
		]);
	});

	it('splits a CSV text at 500,000 characters and finds repeats across the parts', async () => {
		const long = 'x'.repeat(900);
		const lines = Array.from(
			{ length: 700 },
			(_, index) => `4917${String(index).padStart(8, '0')},yes,${long}`,
		);
		lines[650] = `4917${String(5).padStart(8, '0')},yes,${long}`;
		const csv = ['phone,opt_in,param_1', ...lines].join('\n');
		const parameters: INodeParameters = {
			resource: 'campaign',
			operation: 'analyzeCsv',
			inputMode: 'fields',
			csv,
			simplify: false,
		};
		const result = await h.run({ parameters });
		expect(result.error).toBeUndefined();
		const sizes = result.calls.map((call) => (call.input as { csv: string }).csv.length);
		expect(sizes).toHaveLength(2);
		expect(Math.max(...sizes)).toBeLessThanOrEqual(500_000);
		expect(result.json[0]).toMatchObject({ parts: 2, rows: 700 });
		expect(result.json[0].duplicatesAcrossParts).toEqual([
			{ phone: '491700000005', rows: [6, 651] },
		]);
	});

	it('takes a CSV file from a binary property', async () => {
		const csv = 'phone,opt_in\r\n4915112345678,yes\r\n447700900123,yes\r\n';
		const item: INodeExecutionData = {
			json: {},
			binary: {
				data: {
					data: Buffer.from(csv).toString('base64'),
					mimeType: 'text/csv',
					fileName: 'list.csv',
				},
			},
		};
		const result = await h.run(
			{ parameters: { resource: 'campaign', operation: 'analyzeCsv', inputMode: 'csvBinary' } },
			[item],
		);
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ rows: 2, valid_rows: 2 });
	});

	it('takes CSV text, one analysis per item', async () => {
		const parameters: INodeParameters = {
			resource: 'campaign',
			operation: 'analyzeCsv',
			inputMode: 'fields',
			csv: '={{ $json.csv }}',
		};
		const result = await h.run({ parameters }, [
			{ csv: 'phone,opt_in\n4915112345678,yes' },
			{ csv: 'phone,opt_in\n0,yes' },
		]);
		expect(result.json.map((json) => json.valid_rows)).toEqual([1, 0]);
		expect(result.output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('an empty CSV from an expression is an error, not an answer with 0 parts', async () => {
		const parameters = {
			resource: 'campaign',
			operation: 'analyzeCsv',
			inputMode: 'fields',
			csv: '={{ $json.csv }}',
		};
		const result = await h.run({ parameters, continueOnFail: true }, [
			{ csv: '' },
			{ csv: '\n\n' },
		]);
		expect(result.json.map((json) => (json.error as IDataObject | undefined)?.message)).toEqual([
			expect.stringMatching(/^The CSV is empty/),
			expect.stringMatching(/^The CSV is empty/),
		]);
		expect(result.calls).toEqual([]);
	});

	it('an object where a CSV value belongs is an error, never "[object Object]"', async () => {
		const result = await h.run({ parameters: fromItems, continueOnFail: true }, [
			{ phone: { number: '4915112345678' }, opt_in: 'yes', params: [] },
		]);
		expect((result.json[0].error as IDataObject).message).toMatch(
			/CSV values must be text or finite numbers/,
		);
		expect(result.calls).toEqual([]);
	});
});
