import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import {
	exampleValue,
	fieldKind,
	primaryType,
	stringEnum,
	unwrap,
	type FieldKind,
	type JsonSchema,
} from '../../../helpers/jsonSchema';
import { humanize } from '../../../helpers/naming';

/*
 * One n8n parameter from one JSON Schema property. The catalogue's zod schemas are the only
 * source: their JSON Schema gives type, bounds, enums, descriptions and examples, so a field is
 * never described twice.
 */

function optionName(value: string): string {
	return value === value.toUpperCase() ? value : humanize(value);
}

export function enumOptions(values: readonly string[]): INodePropertyOptions[] {
	return values.map((value) => ({ name: optionName(value), value }));
}

function range(min: number | undefined, max: number | undefined): string | undefined {
	if (min !== undefined && max !== undefined && min > 0) return min === max ? `${min}` : `${min}-${max}`;
	if (max !== undefined) return `up to ${max}`;
	return min !== undefined ? `at least ${min}` : undefined;
}

/** The schema's rule in words, for people and for AI agents filling the field. */
export function ruleSummary(raw: JsonSchema): string | undefined {
	const schema = unwrap(raw);
	const kind = fieldKind(schema);
	if (kind === 'dateTime') return 'ISO 8601 date-time with timezone, e.g. 2026-10-01T09:30:00Z';
	if (kind === 'integer' || kind === 'number') {
		const span = range(schema.minimum, schema.maximum);
		return span ? `${kind === 'integer' ? 'Whole number' : 'Number'} ${span}` : undefined;
	}
	if (kind === 'string') {
		const span = range(schema.minLength, schema.maxLength);
		return span ? `${span} characters` : undefined;
	}
	if (kind === 'stringList' || kind === 'optionsList' || primaryType(schema) === 'array') {
		const span = range(schema.minItems, schema.maxItems);
		return span ? `${span} items` : undefined;
	}
	return undefined;
}

const LIST_HINT = 'Separate values with new lines or commas, or give a JSON array (or an expression returning a list).';

export function describeField(schema: JsonSchema, kind: FieldKind = fieldKind(schema)): string {
	const base = (unwrap(schema).description ?? '').trim();
	const rule = ruleSummary(schema);
	const parts = [base];
	// The catalogue often states the bound already ("up to 20, each 1-1024 characters").
	const bound = rule?.match(/\d[\d-]*/)?.[0];
	if (rule && !(bound && base.replace(/,/g, '').includes(bound))) parts.push(`${rule}.`);
	if (kind === 'stringList') parts.push(LIST_HINT);
	return parts
		.filter((part) => part !== '')
		.map((part) => (/[.!?)]$/.test(part) ? part : `${part}.`))
		.join(' ');
}

function stringDefault(schema: JsonSchema): string {
	return typeof schema.default === 'string' ? schema.default : '';
}

export interface FieldPropertyOptions {
	/** Parameter name, when it differs from the schema property name. */
	parameterName?: string;
	displayName?: string;
	required?: boolean;
	default?: INodeProperties['default'];
	displayOptions?: INodeProperties['displayOptions'];
}

/** The n8n parameter for schema property `name`. */
export function fieldProperty(name: string, raw: JsonSchema, options: FieldPropertyOptions = {}): INodeProperties {
	const schema = unwrap(raw);
	const kind = fieldKind(schema);
	const example = exampleValue(schema);
	const property: INodeProperties = {
		displayName: options.displayName ?? schema.title ?? humanize(name),
		name: options.parameterName ?? name,
		type: 'string',
		default: '',
		description: describeField(schema, kind),
	};
	if (options.required) property.required = true;
	if (options.displayOptions) property.displayOptions = options.displayOptions;

	switch (kind) {
		case 'options': {
			const values = stringEnum(schema) ?? [];
			property.type = 'options';
			property.options = enumOptions(values);
			property.default = typeof schema.default === 'string' ? schema.default : (values[0] ?? '');
			break;
		}
		case 'optionsList':
			property.type = 'multiOptions';
			property.options = enumOptions(stringEnum(unwrap(schema.items ?? {})) ?? []);
			property.default = [];
			break;
		case 'dateTime':
			property.type = 'dateTime';
			break;
		case 'integer':
		case 'number':
			property.type = 'number';
			property.default = typeof schema.default === 'number' ? schema.default : (schema.minimum ?? 0);
			property.typeOptions = {
				...(schema.minimum !== undefined ? { minValue: schema.minimum } : {}),
				...(schema.maximum !== undefined ? { maxValue: schema.maximum } : {}),
				...(kind === 'integer' ? { numberPrecision: 0 } : {}),
			};
			break;
		case 'boolean':
			property.type = 'boolean';
			property.default = schema.default === true || schema.const === true;
			break;
		case 'json':
			property.type = 'json';
			property.default = JSON.stringify(example, null, 2);
			break;
		default:
			property.default = stringDefault(schema);
			if ((schema.maxLength ?? 0) > 300) property.typeOptions = { rows: 4 };
			if (typeof example === 'string' && example !== '') property.placeholder = `e.g. ${example.split('\n')[0]}`;
	}
	if (options.default !== undefined) property.default = options.default;
	return property;
}
