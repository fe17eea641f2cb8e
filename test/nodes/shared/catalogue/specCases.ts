import type { FieldRule, SpecRow } from './specTable';

/** One input derived from a row's base by changing a single field. */
export interface BoundCase {
	title: string;
	path: string;
	value: unknown;
	/** undefined: must pass; otherwise the failure message must contain each of these. */
	rejectedWith?: readonly string[];
}

type Segment = string | number;

export function parsePath(path: string): Segment[] {
	return [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((match) =>
		match[2] === undefined ? match[1] : Number(match[2]),
	);
}

/** A deep copy of `base` with the value at `path` replaced (or removed when `value` is undefined). */
export function withValue(
	base: Record<string, unknown>,
	path: string,
	value: unknown,
): Record<string, unknown> {
	const copy = structuredClone(base);
	const segments = parsePath(path);
	let target = copy as Record<Segment, unknown>;
	for (const segment of segments.slice(0, -1)) target = target[segment] as Record<Segment, unknown>;
	const last = segments[segments.length - 1];
	if (value === undefined) delete target[last];
	else target[last] = value;
	return copy;
}

const chars = (length: number) => 'a'.repeat(length);
const items = (rule: { item: (index: number) => unknown }, length: number) =>
	Array.from({ length }, (_, index) => rule.item(index));

function boundedCases(
	min: number,
	max: number,
	make: (size: number) => unknown,
	unit: string,
): Array<Omit<BoundCase, 'path'>> {
	const rule = [String(min), String(max)];
	const cases: Array<Omit<BoundCase, 'path'>> = [
		{ title: `${min} ${unit} (minimum)`, value: make(min) },
		{ title: `${max} ${unit} (maximum)`, value: make(max) },
		{ title: `${max + 1} ${unit}`, value: make(max + 1), rejectedWith: rule },
	];
	if (min > 0)
		cases.push({ title: `${min - 1} ${unit}`, value: make(min - 1), rejectedWith: rule });
	return cases;
}

function casesForRule(rule: FieldRule): Array<Omit<BoundCase, 'path'>> {
	switch (rule.kind) {
		case 'string':
			return [
				...boundedCases(rule.min, rule.max, chars, 'characters'),
				{ title: 'a number', value: 42, rejectedWith: ['must be a string'] },
			];
		case 'integer':
			return [
				...boundedCases(rule.min, rule.max, (size) => size, '='),
				{ title: 'a fraction', value: rule.min + 0.5, rejectedWith: ['must be an integer'] },
				{ title: 'a numeric string', value: String(rule.min), rejectedWith: ['must be'] },
			];
		case 'list':
			return [
				...boundedCases(rule.min, rule.max, (size) => items(rule, size), 'items'),
				{
					title: 'a single value instead of a list',
					value: rule.item(0),
					rejectedWith: ['must be a list'],
				},
			];
		case 'enum':
			return [
				...rule.values.map((value) => ({ title: `"${value}"`, value })),
				{
					title: 'an unknown value',
					value: 'NOT_AN_OPTION',
					rejectedWith: ['must be one of', rule.values[0]],
				},
				{
					title: 'wrong letter case',
					value: swapCase(rule.values[0]),
					rejectedWith: ['must be one of'],
				},
			];
		case 'format':
			return [
				...rule.valid.map((value) => ({
					title: `valid ${JSON.stringify(value).slice(0, 40)}`,
					value,
				})),
				...rule.invalid.map((value) => ({
					title: `invalid ${JSON.stringify(value).slice(0, 40)}`,
					value,
					rejectedWith: ['must '],
				})),
				{ title: 'a number', value: 1234567, rejectedWith: ['must be a string'] },
			];
		case 'boolean':
			return [
				{ title: 'true', value: true },
				{ title: 'false', value: false },
				{ title: 'the string "true"', value: 'true', rejectedWith: ['must be true or false'] },
			];
		case 'literalTrue':
			return [
				{ title: 'true', value: true },
				{ title: 'false', value: false, rejectedWith: ['must be true'] },
			];
		case 'opaque':
			return [];
	}
}

function swapCase(value: string): string {
	const swapped = value.toLowerCase();
	return swapped === value ? value.toUpperCase() : swapped;
}

export function boundCases(row: SpecRow): BoundCase[] {
	return Object.entries(row.fields).flatMap(([path, rule]) =>
		casesForRule(rule).map((testCase) => ({ ...testCase, path })),
	);
}

/** Top-level property names a tool accepts, gathered from all its rows. */
export function specProperties(rows: readonly SpecRow[], tool: string): string[] {
	const names = rows
		.filter((row) => row.tool === tool)
		.flatMap((row) => Object.keys(row.fields).map((path) => String(parsePath(path)[0])));
	return [...new Set(names)].sort();
}
