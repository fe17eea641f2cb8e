import { isRecord } from '../../../shared/guards';

/*
 * Joins the answers of several analyze_campaign_csv calls into one. The answer's layout is not
 * documented, so the merge goes by value: counts add up, flags must all hold, lists of values are
 * united, lists of findings are joined (entries that differ only in their counts, such as one
 * country seen in two parts, become one), and row numbers are shifted to count from the start of
 * the whole list.
 */

const ROW_NUMBER_FIELDS = new Set(['row', 'rowNumber', 'row_number', 'line']);
const ROW_IN_TEXT = /\brow (\d+)\b/g;

function renumber(value: unknown, offset: number, key = ''): unknown {
	if (Array.isArray(value)) return value.map((item) => renumber(item, offset));
	if (typeof value === 'string' && key === 'message') {
		return value.replace(ROW_IN_TEXT, (_, row: string) => `row ${Number(row) + offset}`);
	}
	if (!isRecord(value)) return value;
	const result: Record<string, unknown> = {};
	for (const [name, item] of Object.entries(value)) {
		result[name] = ROW_NUMBER_FIELDS.has(name) && typeof item === 'number' ? item + offset : renumber(item, offset, name);
	}
	return result;
}

/** What makes two findings the same finding: everything but their counts. */
function identity(entry: Record<string, unknown>): string {
	const kept = Object.entries(entry).filter(([name, value]) => typeof value !== 'number' || ROW_NUMBER_FIELDS.has(name));
	return JSON.stringify(kept);
}

function mergeLists(left: unknown[], right: unknown[]): unknown[] {
	const result: unknown[] = [];
	const findings = new Map<string, number>();
	for (const item of [...left, ...right]) {
		if (!isRecord(item)) {
			if (!result.some((existing) => JSON.stringify(existing) === JSON.stringify(item))) result.push(item);
			continue;
		}
		const key = identity(item);
		const at = findings.get(key);
		if (at === undefined) {
			findings.set(key, result.length);
			result.push(item);
		} else result[at] = merge(result[at], item);
	}
	return result;
}

function merge(left: unknown, right: unknown): unknown {
	if (left === undefined) return right;
	if (right === undefined) return left;
	if (typeof left === 'number' && typeof right === 'number') return left + right;
	if (typeof left === 'boolean' && typeof right === 'boolean') return left && right;
	if (Array.isArray(left) && Array.isArray(right)) return mergeLists(left, right);
	if (isRecord(left) && isRecord(right)) {
		const result: Record<string, unknown> = { ...left };
		for (const [key, value] of Object.entries(right)) {
			result[key] = ROW_NUMBER_FIELDS.has(key) ? left[key] : merge(left[key], value);
		}
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
