import { isRecord } from '../../helpers/jsonSchema';

/*
 * Joins the answers of several analyze_campaign_csv calls into one. The answer's layout is not
 * documented, so the merge goes by value: counts add up, lists are joined, flags must all hold,
 * nested objects merge the same way, and row numbers are shifted so they count from the start of
 * the whole list.
 */

const ROW_NUMBER_FIELDS = new Set(['row', 'rowNumber', 'row_number', 'line']);
const ROW_LIST_FIELDS = new Set(['rows', 'rowNumbers', 'row_numbers']);

function renumber(value: unknown, offset: number): unknown {
	if (Array.isArray(value)) return value.map((item) => renumber(item, offset));
	if (!isRecord(value)) return value;
	const result: Record<string, unknown> = {};
	for (const [key, item] of Object.entries(value)) {
		if (ROW_NUMBER_FIELDS.has(key) && typeof item === 'number') result[key] = item + offset;
		else if (ROW_LIST_FIELDS.has(key) && Array.isArray(item)) {
			result[key] = item.map((row) => (typeof row === 'number' ? row + offset : row));
		} else result[key] = renumber(item, offset);
	}
	return result;
}

function merge(left: unknown, right: unknown): unknown {
	if (left === undefined) return right;
	if (right === undefined) return left;
	if (typeof left === 'number' && typeof right === 'number') return left + right;
	if (typeof left === 'boolean' && typeof right === 'boolean') return left && right;
	if (Array.isArray(left) && Array.isArray(right)) return [...left, ...right];
	if (isRecord(left) && isRecord(right)) {
		const result: Record<string, unknown> = { ...left };
		for (const [key, value] of Object.entries(right)) result[key] = merge(left[key], value);
		return result;
	}
	return left;
}

export function mergeFindings(answers: ReadonlyArray<{ data: Record<string, unknown>; rowOffset: number }>): Record<string, unknown> {
	return answers.reduce<Record<string, unknown>>(
		(merged, answer) => merge(merged, renumber(answer.data, answer.rowOffset)) as Record<string, unknown>,
		{},
	);
}
