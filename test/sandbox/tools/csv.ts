import { type ToolHandler, str, toolError } from './context';
import { candidateCountries, callingCode } from './countries';
import { CsvSyntaxError, parseCsv } from './csvParse';

/** Spec Limits: CSV analysis up to 3,000 rows (the 500,000-character cap is in the schema). */
export const MAX_CSV_ROWS = 3000;
const MAX_PARAMETER_CHARS = 1024;
/** Answers stay readable: issues past this many are counted, not listed. */
const MAX_LISTED_ISSUES = 500;
const OPT_IN_YES = new Set(['yes', 'y', 'true', '1', 'opted_in', 'opt_in']);
const OPT_IN_NO = new Set(['no', 'n', 'false', '0', '']);
const INTERNATIONAL = /^[1-9]\d{6,14}$/;

interface Issue {
	row: number | null;
	column: string | null;
	message: string;
}

/** `+49 (151) 123-45` and `0049...` both become digits in international format. */
function normalizePhone(raw: string): string {
	const compact = raw.trim().replace(/[\s().-]/g, '');
	if (compact.startsWith('+')) return compact.slice(1);
	if (compact.startsWith('00')) return compact.slice(2);
	return compact;
}

function records(csv: string): string[][] {
	try {
		return parseCsv(csv).filter((r) => !(r.length === 1 && r[0].trim() === ''));
	} catch (error) {
		if (error instanceof CsvSyntaxError)
			throw toolError(`The CSV is not valid RFC 4180: ${error.message}.`, { line: error.line });
		throw error;
	}
}

/** Analyses a campaign CSV: sends nothing, proves neither registration nor consent, quotes no price. */
const analyzeCampaignCsv: ToolHandler = (ctx) => {
	const [header = [], ...rows] = records(str(ctx.input, 'csv') ?? '');
	const columns = header.map((c) => c.trim().toLowerCase());
	const missing = ['phone', 'opt_in'].filter((c) => !columns.includes(c));
	if (missing.length > 0)
		throw toolError(
			`The CSV needs the header columns phone and opt_in; missing: ${missing.join(', ')}.`,
		);
	if (rows.length > MAX_CSV_ROWS)
		throw toolError(
			`The CSV has ${rows.length} data rows; at most ${MAX_CSV_ROWS} are analysed per call.`,
		);
	const required = (ctx.input.requiredTemplateVariables as number | undefined) ?? 0;
	const issues: Issue[] = [];
	const paramColumns = new Map<number, number>();
	columns.forEach((name, index) => {
		const match = /^param_(\d+)$/.exec(name);
		if (!match) return;
		const n = Number(match[1]);
		paramColumns.set(n, index);
		if (n < 1 || n > required)
			issues.push({
				row: null,
				column: name,
				message: `is not used: the template has ${required} variable(s)`,
			});
	});
	for (let n = 1; n <= required; n++) {
		if (!paramColumns.has(n))
			issues.push({
				row: null,
				column: `param_${n}`,
				message: 'is missing: the template needs it',
			});
	}
	const seen = new Map<string, number>();
	const countries = new Map<string, { calling_code: string; candidates: string[]; rows: number }>();
	const tally = { valid: 0, invalid: 0, duplicates: 0, optedIn: 0, notOptedIn: 0, eligible: 0 };
	rows.forEach((cells, i) => {
		const row = i + 1;
		const before = issues.length;
		if (cells.length !== columns.length)
			issues.push({
				row,
				column: null,
				message: `has ${cells.length} fields; the header has ${columns.length}`,
			});
		const cell = (name: string) => cells[columns.indexOf(name)] ?? '';
		const phone = normalizePhone(cell('phone'));
		const phoneOk = INTERNATIONAL.test(phone);
		if (!phoneOk)
			issues.push({
				row,
				column: 'phone',
				message: 'must be an international number: 7-15 digits, first digit not 0',
			});
		const duplicateOf = phoneOk ? seen.get(phone) : undefined;
		if (duplicateOf !== undefined) {
			tally.duplicates++;
			issues.push({ row, column: 'phone', message: `duplicates row ${duplicateOf}` });
		} else if (phoneOk) seen.set(phone, row);
		const optIn = cell('opt_in').trim().toLowerCase();
		const optedIn = OPT_IN_YES.has(optIn);
		if (optedIn) tally.optedIn++;
		else if (OPT_IN_NO.has(optIn)) tally.notOptedIn++;
		else
			issues.push({
				row,
				column: 'opt_in',
				message: 'must declare yes or no (yes/y/true/1 or no/n/false/0)',
			});
		for (let n = 1; n <= required; n++) {
			const value = paramColumns.has(n) ? (cells[paramColumns.get(n) ?? -1] ?? '') : null;
			if (value === '')
				issues.push({ row, column: `param_${n}`, message: 'is empty: the template needs a value' });
			else if (value !== null && value.length > MAX_PARAMETER_CHARS)
				issues.push({
					row,
					column: `param_${n}`,
					message: `must be at most ${MAX_PARAMETER_CHARS} characters`,
				});
		}
		const clean = issues.length === before;
		tally[clean ? 'valid' : 'invalid']++;
		if (clean && optedIn) tally.eligible++;
		if (phoneOk && duplicateOf === undefined) {
			const code = callingCode(phone) ?? 'unknown';
			const entry = countries.get(code) ?? {
				calling_code: code,
				candidates: candidateCountries(phone),
				rows: 0,
			};
			entry.rows++;
			countries.set(code, entry);
		}
	});
	return {
		rows: rows.length,
		columns,
		valid_rows: tally.valid,
		invalid_rows: tally.invalid,
		duplicate_rows: tally.duplicates,
		opted_in_rows: tally.optedIn,
		not_opted_in_rows: tally.notOptedIn,
		eligible_rows: tally.eligible,
		candidate_countries: [...countries.values()].sort((a, b) => b.rows - a.rows),
		issues: issues.slice(0, MAX_LISTED_ISSUES),
		issue_count: issues.length,
		notes: [
			'Nothing was sent. Declared opt-in is not proof of consent.',
			'The analysis cannot prove that numbers are registered and gives no live price.',
		],
	};
};

export const csvHandlers: Record<string, ToolHandler> = {
	analyze_campaign_csv: analyzeCampaignCsv,
};
