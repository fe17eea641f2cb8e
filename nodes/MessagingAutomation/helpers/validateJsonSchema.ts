import type { ValidationIssue } from '../../shared/catalogue/validate';
import { isRecord } from '../../shared/guards';
import { asSchema, isUnsafePropertyName, primaryType, propertySchema, type JsonSchema } from './jsonSchema';

/*
 * Checks input against a tool's live JSON Schema (tools the catalogue does not know) before
 * anything is sent. Messages follow the catalogue's wording ("must be 1-250 characters") so a
 * person or an AI agent gets the same kind of answer for every tool.
 */

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function bounds(min: number | undefined, max: number | undefined, unit: string): string {
	if (min !== undefined && max !== undefined) return `${min}-${max} ${unit}`;
	if (max !== undefined) return `at most ${max} ${unit}`;
	return `at least ${min} ${unit}`;
}

const LONGEST_NAME = 64;

/** A property name as messages show it: a megabyte of name is cut, with its length said. */
function shownName(name: string): string {
	return name.length <= LONGEST_NAME ? name : `${name.slice(0, 40)}…(${name.length} characters)`;
}

function joinPath(path: string, key: string | number): string {
	if (typeof key === 'number') return `${path}[${key}]`;
	return path === '' ? shownName(key) : `${path}.${shownName(key)}`;
}

function typeMatches(type: string, value: unknown): boolean {
	switch (type) {
		case 'string':
			return typeof value === 'string';
		case 'integer':
			return typeof value === 'number' && Number.isInteger(value);
		case 'number':
			return typeof value === 'number' && Number.isFinite(value);
		case 'boolean':
			return typeof value === 'boolean';
		case 'array':
			return Array.isArray(value);
		case 'object':
			return isRecord(value);
		case 'null':
			return value === null;
		default:
			return true;
	}
}

const TYPE_WORDS: Record<string, string> = {
	string: 'a string',
	integer: 'an integer',
	number: 'a number',
	boolean: 'true or false',
	array: 'a list',
	object: 'an object',
};

/** A pattern this engine cannot compile is the server's to enforce, not a reason to refuse. */
function matchesPattern(pattern: string, value: string): boolean {
	let expression: RegExp;
	try {
		expression = new RegExp(pattern, 'u');
	} catch {
		return true;
	}
	return expression.test(value);
}

function checkString(schema: JsonSchema, value: string, path: string, issues: ValidationIssue[]): void {
	const { minLength, maxLength } = schema;
	if ((minLength !== undefined && value.length < minLength) || (maxLength !== undefined && value.length > maxLength)) {
		issues.push({ path, message: `must be ${bounds(minLength, maxLength, 'characters')}` });
		return;
	}
	if (schema.pattern !== undefined && !matchesPattern(schema.pattern, value)) {
		issues.push({ path, message: `must match the pattern ${schema.pattern}` });
	} else if (schema.format === 'date-time' && !DATE_TIME.test(value)) {
		issues.push({ path, message: 'must be an ISO 8601 date-time with a timezone, e.g. 2026-10-01T09:30:00Z' });
	} else if (schema.format === 'uuid' && !UUID.test(value)) {
		issues.push({ path, message: 'must be a UUID' });
	}
}

function checkNumber(schema: JsonSchema, value: number, path: string, issues: ValidationIssue[]): void {
	const low = schema.minimum ?? schema.exclusiveMinimum;
	const high = schema.maximum ?? schema.exclusiveMaximum;
	const tooLow =
		(schema.minimum !== undefined && value < schema.minimum) ||
		(schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum);
	const tooHigh =
		(schema.maximum !== undefined && value > schema.maximum) ||
		(schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum);
	if (tooLow || tooHigh) {
		const word = primaryType(schema) === 'integer' ? 'an integer' : 'a number';
		const range = low !== undefined && high !== undefined ? `from ${low} to ${high}` : tooLow ? `of at least ${low}` : `of at most ${high}`;
		issues.push({ path, message: `must be ${word} ${range}` });
	}
}

function checkArray(schema: JsonSchema, value: unknown[], path: string, issues: ValidationIssue[]): void {
	const { minItems, maxItems } = schema;
	if ((minItems !== undefined && value.length < minItems) || (maxItems !== undefined && value.length > maxItems)) {
		issues.push({ path, message: `must have ${bounds(minItems, maxItems, 'items')}` });
	}
	if (schema.items) value.forEach((item, index) => check(asSchema(schema.items), item, joinPath(path, index), issues));
}

function checkObject(schema: JsonSchema, value: Record<string, unknown>, path: string, issues: ValidationIssue[]): void {
	const properties = schema.properties ?? {};
	for (const name of schema.required ?? []) {
		if (!Object.hasOwn(value, name) || value[name] === undefined) issues.push({ path: joinPath(path, name), message: 'is required' });
	}
	for (const [name, item] of Object.entries(value)) {
		if (item === undefined) continue;
		if (isUnsafePropertyName(name)) {
			issues.push({ path: joinPath(path, name), message: 'is not a property name that is ever sent (__proto__, constructor and prototype are refused)' });
			continue;
		}
		const property = propertySchema(schema, name);
		if (property) check(property, item, joinPath(path, name), issues);
		else if (schema.additionalProperties === false) {
			const accepted = path === '' ? `; accepted: ${Object.keys(properties).join(', ')}` : '';
			issues.push({ path: joinPath(path, name), message: `is not an accepted property${accepted}` });
		} else if (isRecord(schema.additionalProperties)) {
			check(schema.additionalProperties, item, joinPath(path, name), issues);
		}
	}
}

function check(schema: JsonSchema, value: unknown, path: string, issues: ValidationIssue[]): void {
	const variants = schema.anyOf ?? schema.oneOf;
	if (variants) {
		const results = variants.map((variant) => validateAgainstSchema(asSchema(variant), value, path));
		if (!results.some((result) => result.length === 0)) issues.push(...results.reduce((a, b) => (b.length < a.length ? b : a)));
		return;
	}
	for (const part of schema.allOf ?? []) check(asSchema(part), value, path, issues);
	if (schema.const !== undefined && value !== schema.const) {
		issues.push({ path, message: `must be ${JSON.stringify(schema.const)}` });
		return;
	}
	if (schema.enum && !schema.enum.includes(value)) {
		issues.push({ path, message: `must be one of: ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}` });
		return;
	}
	const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
	if (types.length > 0 && !types.some((type) => typeMatches(type, value))) {
		issues.push({ path, message: `must be ${types.map((type) => TYPE_WORDS[type] ?? type).join(' or ')}` });
		return;
	}
	if (typeof value === 'string') checkString(schema, value, path, issues);
	else if (typeof value === 'number') checkNumber(schema, value, path, issues);
	else if (Array.isArray(value)) checkArray(schema, value, path, issues);
	else if (isRecord(value)) checkObject(schema, value, path, issues);
}

/** Every issue of `value` against `schema`; empty when it conforms. */
export function validateAgainstSchema(schema: JsonSchema, value: unknown, path = ''): ValidationIssue[] {
	const issues: ValidationIssue[] = [];
	check(schema, value, path, issues);
	return issues;
}
