/**
 * The bench's one output: a Markdown table (so the README can take it as printed) with one line
 * per measurement, followed by the notes that explain the figures.
 */

export interface MeasuredRow {
	id: string;
	title: string;
	/** What was measured, as a ratio where the row has an anchor. */
	figure: string;
	/** What the figure is compared with, with its absolute value from the same run. */
	anchor: string;
	target: string;
	/** null when the row states a figure without a pass/fail target (memory). */
	met: boolean | null;
	notes?: string[];
}

/** A row that was not attempted on purpose (an option not given, a tool not installed). */
export interface SkippedRow {
	id: string;
	title: string;
	notRun: string;
}

/** A row that was attempted and could not produce a figure: the bench then exits non-zero. */
export interface FailedRow {
	id: string;
	title: string;
	error: string;
}

export type RowResult = MeasuredRow | SkippedRow | FailedRow;

const HEADER = ['#', 'Measurement', 'Figure', 'Anchor (same run)', 'Target', 'Met'];

function cells(row: RowResult): string[] {
	if ('notRun' in row) return [row.id, row.title, `not run: ${row.notRun}`, '', '', '–'];
	if ('error' in row) return [row.id, row.title, `could not run: ${row.error}`, '', '', '–'];
	const met = row.met === null ? 'stated' : row.met ? 'yes' : 'NO';
	return [row.id, row.title, row.figure, row.anchor, row.target, met];
}

// A pipe inside a cell would start a new column in Markdown.
const escape = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

export function formatTable(rows: readonly RowResult[]): string {
	const lines = [HEADER, HEADER.map(() => '---'), ...rows.map(cells)].map((line) =>
		line.map(escape),
	);
	const widths = HEADER.map((_, column) => Math.max(...lines.map((line) => line[column].length)));
	return lines
		.map((line, index) =>
			index === 1
				? `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`
				: `| ${line.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`,
		)
		.join('\n');
}

export function formatNotes(rows: readonly RowResult[]): string {
	const lines: string[] = [];
	for (const row of rows) {
		if (!('notes' in row) || !row.notes?.length) continue;
		for (const note of row.notes) lines.push(`- ${row.id}: ${note}`);
	}
	return lines.join('\n');
}

export const isFailed = (row: RowResult): row is FailedRow => 'error' in row;
