/** A strict RFC 4180 reader: quoted fields, "" escapes, CRLF or LF line ends. */

export class CsvSyntaxError extends Error {
	constructor(
		readonly line: number,
		message: string,
	) {
		super(`line ${line}: ${message}`);
	}
}

export function parseCsv(text: string): string[][] {
	const input = text.startsWith('\uFEFF') ? text.slice(1) : text;
	const records: string[][] = [];
	let record: string[] = [];
	let field = '';
	// A quoted empty field ("") is still a field, so "started" tracks more than field !== ''.
	let started = false;
	let line = 1;
	let i = 0;
	const endField = () => {
		record.push(field);
		field = '';
		started = false;
	};
	while (i < input.length) {
		const char = input[i];
		if (char === '"') {
			if (started)
				throw new CsvSyntaxError(
					line,
					'a quote may only open a field; quote the whole field and double inner quotes',
				);
			const opened = line;
			started = true;
			i++;
			for (;;) {
				if (i >= input.length) throw new CsvSyntaxError(opened, 'a quoted field is never closed');
				if (input[i] === '"' && input[i + 1] === '"') {
					field += '"';
					i += 2;
				} else if (input[i] === '"') {
					i++;
					break;
				} else {
					if (input[i] === '\n') line++;
					field += input[i++];
				}
			}
			const after = input[i];
			if (after !== undefined && after !== ',' && after !== '\n' && after !== '\r') {
				throw new CsvSyntaxError(line, 'a closing quote must be followed by a comma or a line end');
			}
		} else if (char === ',') {
			endField();
			i++;
		} else if (char === '\r' || char === '\n') {
			endField();
			records.push(record);
			record = [];
			i += char === '\r' && input[i + 1] === '\n' ? 2 : 1;
			line++;
		} else {
			field += char;
			started = true;
			i++;
		}
	}
	if (started || record.length > 0) {
		endField();
		records.push(record);
	}
	return records;
}
