import { describe, expect, it } from 'vitest';

import {
	csvLine,
	csvRecords,
	csvValues,
	splitCsv,
} from '../../../../nodes/MessagingAutomation/helpers/csv';

describe('CSV', () => {
	it('quotes per RFC 4180', () => {
		expect(csvLine(['plain', 'a,b', 'say "hi"', 'two\nlines', ' padded', null, 7])).toBe(
			'plain,"a,b","say ""hi""","two\nlines"," padded",,7',
		);
	});

	it('reads records and values back, line breaks inside quotes included', () => {
		const text = 'phone,name\r\n1,"Smith, Anna"\n2,"Bob\nJr."\r\n\r\n';
		expect(csvRecords(text)).toEqual(['phone,name', '1,"Smith, Anna"', '2,"Bob\nJr."']);
		expect(csvValues('2,"Bob ""B"" Jr.",')).toEqual(['2', 'Bob "B" Jr.', '']);
	});

	it('splits at the row and character limits, header first in every part', () => {
		const text = ['h', 'r1', 'r2', 'r3', 'r4', 'r5'].join('\n');
		expect(splitCsv(text, 2, 1000).map((part) => [part.text, part.rowOffset])).toEqual([
			['h\r\nr1\r\nr2', 0],
			['h\r\nr3\r\nr4', 2],
			['h\r\nr5', 4],
		]);
		expect(splitCsv(text, 100, 9).map((part) => part.rows)).toEqual([
			['r1', 'r2'],
			['r3', 'r4'],
			['r5'],
		]);
		expect(() => splitCsv('h\nrow-too-long', 10, 8)).toThrow(/row 1 is longer than 8 characters/);
		expect(splitCsv('h', 10, 100)).toEqual([{ text: 'h', header: 'h', rowOffset: 0, rows: [] }]);
	});
});
