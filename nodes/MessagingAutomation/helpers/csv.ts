/* RFC 4180 CSV: building rows from values, and cutting a CSV into parts without breaking a record. */

import { InputValidationError } from '../../shared/client/errors';
import { scalarText } from './coerce';

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One field; an object or NaN has no CSV text, and writing "[object Object]" would hide the mistake. */
export function csvField(value: unknown): string {
	const text = value === undefined || value === null ? '' : scalarText(value);
	if (text === undefined) {
		throw new InputValidationError(
			'CSV values must be text or finite numbers; one is an object, a list or NaN. Nothing was sent.',
			{ code: 'input_validation' },
		);
	}
	return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly unknown[]): string {
	return values.map(csvField).join(',');
}

/** The records of a CSV text as they are written (quotes kept), without their line breaks. */
export function csvRecords(text: string): string[] {
	const records: string[] = [];
	let start = 0;
	let quoted = false;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (char === '"') quoted = !quoted;
		else if (!quoted && (char === '\n' || char === '\r')) {
			records.push(text.slice(start, index));
			if (char === '\r' && text[index + 1] === '\n') index++;
			start = index + 1;
		}
	}
	if (start < text.length) records.push(text.slice(start));
	return records.filter((record) => record.trim() !== '');
}

/** The fields of one record. */
export function csvValues(record: string): string[] {
	const values: string[] = [];
	let current = '';
	let quoted = false;
	for (let index = 0; index < record.length; index++) {
		const char = record[index];
		if (quoted) {
			if (char === '"' && record[index + 1] === '"') {
				current += '"';
				index++;
			} else if (char === '"') quoted = false;
			else current += char;
		} else if (char === '"') quoted = true;
		else if (char === ',') {
			values.push(current);
			current = '';
		} else current += char;
	}
	values.push(current);
	return values;
}

export interface CsvPart {
	text: string;
	header: string;
	/** Data rows before this part, for renumbering findings. */
	rowOffset: number;
	rows: string[];
}

/**
 * Cuts a CSV (header first) into parts of at most `maxRows` data rows and `maxChars` characters,
 * each starting with the header. Throws when one record alone is too long.
 */
export function splitCsv(text: string, maxRows: number, maxChars: number): CsvPart[] {
	const [header, ...rows] = csvRecords(text);
	if (header === undefined) return [];
	const parts: CsvPart[] = [];
	let current: string[] = [];
	let length = header.length;
	let offset = 0;
	const flush = () => {
		parts.push({
			text: [header, ...current].join('\r\n'),
			header,
			rowOffset: offset,
			rows: current,
		});
		offset += current.length;
		current = [];
		length = header.length;
	};
	for (const row of rows) {
		if (header.length + 2 + row.length > maxChars) {
			throw new Error(
				`CSV row ${offset + current.length + 1} is longer than ${maxChars} characters`,
			);
		}
		if (current.length >= maxRows || length + 2 + row.length > maxChars) flush();
		current.push(row);
		length += 2 + row.length;
	}
	if (current.length > 0 || parts.length === 0) flush();
	return parts;
}
