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
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Luxon DateTime (from `$now` and friends) or Date, without importing either. */
function dateToIso(value: unknown): string | undefined {
	if (value instanceof Date) return value.toISOString();
	const candidate = value as { toISO?: () => string | null };
	if (typeof value === 'object' && value !== null && typeof candidate.toISO === 'function') {
		return candidate.toISO() ?? undefined;
	}
	return undefined;
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
		return { value: value.filter((item) => !isEmpty(item)).map((item) => (typeof item === 'string' ? item : String(item))) };
	}
	if (typeof value !== 'string') return { value: [String(value)] };
	const text = value.trim();
	if (text.startsWith('[')) {
		const parsed = parseJson(text);
		return parsed.ok && Array.isArray(parsed.value)
			? toStringList(parsed.value)
			: { issue: 'must be a list: a JSON array, or values separated by new lines or commas' };
	}
	const separator = text.includes('\n') ? '\n' : ',';
	return { value: text.split(separator).map((part) => part.trim()).filter((part) => part !== '') };
}

function acceptsString(schema: JsonSchema): boolean {
	return (schema.anyOf ?? schema.oneOf ?? []).some((variant) => primaryType(variant) === 'string');
}

function toJson(value: unknown, schema: JsonSchema): Coerced {
	if (typeof value !== 'string') return { value };
	const parsed = parseJson(value.trim());
	if (parsed.ok && (typeof parsed.value === 'object' || !acceptsString(schema))) return { value: parsed.value };
	if (acceptsString(schema) || primaryType(schema) === 'string') return { value };
	return { issue: 'is not valid JSON' };
}

/** `undefined` means "leave the field out". */
export function coerceToSchema(value: unknown, raw: JsonSchema): Coerced {
	if (isEmpty(value)) return { value: undefined };
	const schema = unwrap(raw);
	switch (fieldKind(schema)) {
		case 'string':
		case 'options':
			return { value: typeof value === 'number' || typeof value === 'boolean' ? String(value) : (dateToIso(value) ?? value) };
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
			return 'value' in list && Array.isArray(list.value) && list.value.length === 0 ? { value: undefined } : list;
		}
		default:
			return toJson(value, schema);
	}
}
