import { describe, expect, it } from 'vitest';
import { parseCsv } from '../tools/csvParse';
import { useSandbox } from './harness';

describe('RFC 4180 parsing', () => {
	it('reads quoted fields with commas, doubled quotes, line breaks and CRLF', () => {
		expect(parseCsv('a,b\r\n"x, y","say ""hi"""\r\n"multi\nline",\n')).toEqual([
			['a', 'b'],
			['x, y', 'say "hi"'],
			['multi\nline', ''],
		]);
		expect(parseCsv('\uFEFFphone\n""')).toEqual([['phone'], ['']]);
	});

	it('refuses unclosed quotes and stray quotes, naming the line', () => {
		expect(() => parseCsv('a\n"open')).toThrow(/line 2: a quoted field is never closed/);
		expect(() => parseCsv('a\nab"c')).toThrow(/line 2: a quote may only open a field/);
		expect(() => parseCsv('"a"b')).toThrow(/line 1: a closing quote must be followed/);
	});
});

describe('analyze_campaign_csv', () => {
	const api = useSandbox();
	const analyze = (csv: string, requiredTemplateVariables?: number) =>
		api.call('analyze_campaign_csv', {
			csv,
			...(requiredTemplateVariables === undefined ? {} : { requiredTemplateVariables }),
		});

	it('checks phone format, duplicates, declared opt-in and template parameters per row', async () => {
		const csv = [
			'phone,opt_in,param_1,param_2',
			'+49 151 12345678,yes,Anna,1042',
			'004915112345678,yes,Anna again,1043',
			'447700900123,no,Bob,1044',
			'0151 1234,yes,Carl,1045',
			'5511987654321,maybe,Dora,',
			'"12025550123",TRUE,"Eve, Jr.",1046',
		].join('\n');
		const { status, body } = await analyze(csv, 2);
		expect(status).toBe(200);
		expect(body).toMatchObject({
			rows: 6,
			columns: ['phone', 'opt_in', 'param_1', 'param_2'],
			valid_rows: 3,
			invalid_rows: 3,
			duplicate_rows: 1,
			opted_in_rows: 4,
			not_opted_in_rows: 1,
			eligible_rows: 2,
		});
		expect(body.issues).toEqual([
			{ row: 2, column: 'phone', message: 'duplicates row 1' },
			{
				row: 4,
				column: 'phone',
				message: 'must be an international number: 7-15 digits, first digit not 0',
			},
			{
				row: 5,
				column: 'opt_in',
				message: 'must declare yes or no (yes/y/true/1 or no/n/false/0)',
			},
			{ row: 5, column: 'param_2', message: 'is empty: the template needs a value' },
		]);
		// Most rows first; ties keep the order of first appearance. The duplicate is not counted twice.
		expect(body.candidate_countries).toEqual([
			{ calling_code: '49', candidates: ['DE'], rows: 1 },
			{ calling_code: '44', candidates: ['GB', 'GG', 'IM', 'JE'], rows: 1 },
			{ calling_code: '55', candidates: ['BR'], rows: 1 },
			{ calling_code: '1', candidates: ['US', 'CA', 'PR', 'JM', 'DO'], rows: 1 },
		]);
		expect(body.notes.join(' ')).toMatch(/cannot prove/);
	});

	it('reports missing and unused param_n columns against requiredTemplateVariables', async () => {
		const { body } = await analyze('phone,opt_in,param_1,param_3\n4915112345678,yes,a,b', 2);
		expect(body.issues).toEqual(
			expect.arrayContaining([
				{ row: null, column: 'param_3', message: 'is not used: the template has 2 variable(s)' },
				{ row: null, column: 'param_2', message: 'is missing: the template needs it' },
			]),
		);
	});

	it('reports rows whose field count differs from the header', async () => {
		const { body } = await analyze('phone,opt_in\n4915112345678,yes,extra');
		expect(body.issues).toEqual([
			{ row: 1, column: null, message: 'has 3 fields; the header has 2' },
		]);
	});

	it('needs the phone and opt_in columns', async () => {
		const reply = await analyze('number,consent\n4915112345678,yes');
		expect(reply.status).toBe(422);
		expect(reply.body.error.message).toMatch(/missing: phone, opt_in/);
	});

	it('analyses 3,000 rows and refuses 3,001', async () => {
		const rows = (n: number) =>
			[
				'phone,opt_in',
				...Array.from({ length: n }, (_, i) => `49151${String(i).padStart(8, '0')},yes`),
			].join('\n');
		const ok = await analyze(rows(3000));
		expect(ok.body).toMatchObject({ rows: 3000, valid_rows: 3000, eligible_rows: 3000 });
		const over = await analyze(rows(3001));
		expect(over.status).toBe(422);
		expect(over.body.error.message).toMatch(/at most 3000/);
	});

	it('refuses CSV that breaks RFC 4180 and a csv over 500,000 characters', async () => {
		const broken = await analyze('phone,opt_in\n"4915112345678,yes');
		expect(broken.status).toBe(422);
		expect(broken.body.error.message).toMatch(/RFC 4180/);
		const huge = await analyze(`phone,opt_in\n${'1'.repeat(500_000)}`);
		expect(huge.body.error).toMatchObject({ code: 'invalid_input', field: 'csv' });
		expect((await analyze('phone,opt_in', 21)).body.error.field).toBe('requiredTemplateVariables');
	});
});
