import { isRecord } from '../../shared/guards';

/**
 * The subset of JSON Schema the node reads: tool inputs come either from the catalogue
 * (`z.toJSONSchema`) or from GET /api/v1/tools, so nothing here assumes who wrote them.
 */

export interface JsonSchema {
	type?: string | string[];
	title?: string;
	description?: string;
	properties?: Record<string, JsonSchema>;
	required?: string[];
	additionalProperties?: boolean | JsonSchema;
	items?: JsonSchema;
	enum?: unknown[];
	const?: unknown;
	format?: string;
	pattern?: string;
	minLength?: number;
	maxLength?: number;
	minimum?: number;
	maximum?: number;
	exclusiveMinimum?: number;
	exclusiveMaximum?: number;
	minItems?: number;
	maxItems?: number;
	anyOf?: JsonSchema[];
	oneOf?: JsonSchema[];
	allOf?: JsonSchema[];
	default?: unknown;
	examples?: unknown[];
}

/** The kinds of value a field takes, decided once so forms, coercion and validation agree. */
export type FieldKind =
	| 'string'
	| 'dateTime'
	| 'number'
	| 'integer'
	| 'boolean'
	| 'options'
	| 'stringList'
	| 'optionsList'
	| 'json';

/** Keys that reach an object's prototype rather than a property: never looked up, never sent. */
const UNSAFE_PROPERTY_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

export function isUnsafePropertyName(name: string): boolean {
	return UNSAFE_PROPERTY_NAMES.has(name);
}

/** The schema of property `name`: an own, safe property only (`properties.constructor` is Object's otherwise). */
export function propertySchema(schema: JsonSchema | undefined, name: string): JsonSchema | undefined {
	const properties = schema?.properties;
	if (!properties || isUnsafePropertyName(name) || !Object.hasOwn(properties, name)) return undefined;
	return asSchema(properties[name]);
}

export function asSchema(value: unknown): JsonSchema {
	return isRecord(value) ? (value as JsonSchema) : {};
}

/** `type` without `null`; `["string", "null"]` is a nullable string. */
export function primaryType(schema: JsonSchema): string | undefined {
	if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
	if (schema.type) return schema.type;
	if (schema.enum?.every((value) => typeof value === 'string')) return 'string';
	if (typeof schema.const === 'boolean') return 'boolean';
	if (typeof schema.const === 'string') return 'string';
	return undefined;
}

/** Nullable wrappers (`anyOf: [X, {type: null}]`) collapse to X; real unions stay as they are. */
export function unwrap(schema: JsonSchema): JsonSchema {
	const variants = (schema.anyOf ?? schema.oneOf)?.filter((variant) => variant.type !== 'null');
	if (variants?.length === 1) return { ...variants[0], description: schema.description ?? variants[0].description };
	return schema;
}

export function stringEnum(schema: JsonSchema): string[] | undefined {
	const values = schema.enum ?? (typeof schema.const === 'string' ? [schema.const] : undefined);
	return values?.every((value) => typeof value === 'string') ? (values as string[]) : undefined;
}

export function fieldKind(raw: JsonSchema): FieldKind {
	const schema = unwrap(raw);
	if (schema.anyOf || schema.oneOf || schema.allOf) return 'json';
	const type = primaryType(schema);
	if (type === 'string') {
		if (stringEnum(schema)) return 'options';
		return schema.format === 'date-time' ? 'dateTime' : 'string';
	}
	if (type === 'integer') return 'integer';
	if (type === 'number') return 'number';
	if (type === 'boolean') return 'boolean';
	if (type === 'array') {
		const items = unwrap(schema.items ?? {});
		if (primaryType(items) === 'string') return stringEnum(items) ? 'optionsList' : 'stringList';
	}
	return 'json';
}

export interface SchemaField {
	name: string;
	schema: JsonSchema;
	required: boolean;
}

/** Top-level fields of an object schema, in declaration order, minus the ones to leave out. */
export function schemaFields(schema: JsonSchema, omit: readonly string[] = []): SchemaField[] {
	const required = new Set(schema.required ?? []);
	return Object.entries(schema.properties ?? {})
		.filter(([name]) => !omit.includes(name))
		.map(([name, property]) => ({ name, schema: asSchema(property), required: required.has(name) }));
}

/** A plausible value for a field, for the JSON editor's starting text and examples. */
export function exampleValue(raw: JsonSchema, depth = 0): unknown {
	const schema = unwrap(raw);
	if (schema.examples?.length) return schema.examples[0];
	if (schema.default !== undefined) return schema.default;
	if (schema.const !== undefined) return schema.const;
	if (schema.enum?.length) return schema.enum[0];
	if (depth > 4) return null;
	switch (fieldKind(schema)) {
		case 'dateTime':
			return '2026-10-01T09:30:00Z';
		case 'integer':
		case 'number':
			return schema.minimum ?? 1;
		case 'boolean':
			return false;
		case 'string':
			return '';
		default:
			break;
	}
	const variant = (schema.anyOf ?? schema.oneOf)?.[0];
	if (variant) return exampleValue(variant, depth + 1);
	if (primaryType(schema) === 'array') return [exampleValue(schema.items ?? {}, depth + 1)];
	const example: Record<string, unknown> = {};
	for (const field of schemaFields(schema)) {
		if (field.required) example[field.name] = exampleValue(field.schema, depth + 1);
	}
	return example;
}
