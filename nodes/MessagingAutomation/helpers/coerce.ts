import { fieldKind, primaryType, unwrap, type JsonSchema } from './jsonSchema';

/*
 * Turns what an n8n parameter or expression produced into what the tool's schema expects:
 * "42" for an integer field becomes 42, "a, b" for a list becomes ["a", "b"], a date picked
 * in the editor gets its timezone. Values that cannot be turned are passed on unchanged, so
 * validation names the field and the rule.
 */

export type Coerced = { value: unknown } | { issue: string };

const NAIVE_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

function isEmpty(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/** Luxon DateTime (from `$now` and friends) or Date, without importing either; undefined for an invalid one. */
function dateToIso(value: unknown): string | undefined {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
	const candidate = value as { toISO?: () => string | null };
	if (typeof value === 'object' && value !== null && typeof candidate.toISO === 'function') {
		return candidate.toISO() ?? undefined;
	}
	return undefined;
}

/**
 * The text of a scalar, or undefined: objects, NaN and Infinity have no honest text ("[object
 * Object]", "NaN"), and `String()` of an object with its own `toString` can even throw.
 */
export function scalarText(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
	if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
	return undefined;
}

/** What a value is, for messages, without converting it. */
function kindOf(value: unknown): string {
	if (typeof value === 'number') return String(value); // NaN, Infinity
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function toDateTime(value: unknown): unknown {
	const iso = dateToIso(value);
	if (iso !== undefined) return iso;
	// The editor's date picker gives no offset; the API requires one. Such values are read as UTC.
	if (typeof value === 'string' && NAIVE_DATE_TIME.test(value.trim())) return `${value.trim()}Z`;
	return value;
}

function toNumber(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	const parsed = Number(value.trim());
	return Number.isFinite(parsed) ? parsed : value;
}

function toBoolean(value: unknown): unknown {
	if (value === 'true') return true;
	if (value === 'false') return false;
	return value;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch {
		return { ok: false };
	}
}

/** A list from a real array, a JSON array, or text separated by new lines (else commas). */
function toStringList(value: unknown): Coerced {
	if (Array.isArray(value)) {
		const items = value.filter((item) => !isEmpty(item));
		const texts = items.map(scalarText);
		const bad = texts.findIndex((text) => text === undefined);
		if (bad >= 0)
			return { issue: `must be a list of texts; item ${bad + 1} is ${kindOf(items[bad])}` };
		return { value: texts };
	}
	if (typeof value !== 'string') {
		const text = scalarText(value);
		return text === undefined
			? { issue: `must be a list of texts, not ${kindOf(value)}` }
			: { value: [text] };
	}
	const text = value.trim();
	if (text.startsWith('[')) {
		const parsed = parseJson(text);
		return parsed.ok && Array.isArray(parsed.value)
			? toStringList(parsed.value)
			: { issue: 'must be a list: a JSON array, or values separated by new lines or commas' };
	}
	const separator = text.includes('\n') ? '\n' : ',';
	return {
		value: text
			.split(separator)
			.map((part) => part.trim())
			.filter((part) => part !== ''),
	};
}

function acceptsString(schema: JsonSchema): boolean {
	return (schema.anyOf ?? schema.oneOf ?? []).some((variant) => primaryType(variant) === 'string');
}

function toJson(value: unknown, schema: JsonSchema): Coerced {
	if (typeof value !== 'string') return { value };
	const parsed = parseJson(value.trim());
	if (parsed.ok && (typeof parsed.value === 'object' || !acceptsString(schema)))
		return { value: parsed.value };
	if (acceptsString(schema) || primaryType(schema) === 'string') return { value };
	return { issue: 'is not valid JSON' };
}

/** `undefined` means "leave the field out". */
export function coerceToSchema(value: unknown, raw: JsonSchema): Coerced {
	if (isEmpty(value)) return { value: undefined };
	const schema = unwrap(raw);
	switch (fieldKind(schema)) {
		case 'string':
		case 'options': {
			if (typeof value === 'object') return { value: dateToIso(value) ?? value };
			const text = scalarText(value);
			return text === undefined ? { issue: `must be text, not ${kindOf(value)}` } : { value: text };
		}
		case 'dateTime':
			return { value: toDateTime(value) };
		case 'integer':
		case 'number':
			return { value: toNumber(value) };
		case 'boolean':
			return { value: toBoolean(value) };
		case 'stringList':
		case 'optionsList': {
			const list = toStringList(value);
			return 'value' in list && Array.isArray(list.value) && list.value.length === 0
				? { value: undefined }
				: list;
		}
		default:
			return toJson(value, schema);
	}
}
