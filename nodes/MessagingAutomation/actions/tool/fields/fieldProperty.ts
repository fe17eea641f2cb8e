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

/** Names and descriptions a schema gives its enum values (`optionLabels` in the catalogue's metadata). */
type OptionLabels = Record<string, { name: string; description?: string }>;

/** Options in Title Case ("SIGN_UP" reads "Sign Up"), sorted as n8n sorts its own. */
export function enumOptions(
	values: readonly string[],
	labels: OptionLabels = {},
): INodePropertyOptions[] {
	return values
		.map((value) => {
			const label = labels[value];
			const option: INodePropertyOptions = { name: label?.name ?? humanize(value), value };
			if (label?.description) option.description = label.description;
			return option;
		})
		.sort((a, b) => a.name.localeCompare(b.name));
}

export function schemaOptions(schema: JsonSchema): INodePropertyOptions[] {
	const labels = (schema as { optionLabels?: OptionLabels }).optionLabels;
	return enumOptions(stringEnum(schema) ?? [], labels);
}

function range(min: number | undefined, max: number | undefined): string | undefined {
	if (min !== undefined && max !== undefined && min > 0)
		return min === max ? `${min}` : `${min}-${max}`;
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

const LIST_HINT =
	'Separate values with new lines or commas, or give a JSON array (or an expression returning a list).';

export function describeField(schema: JsonSchema, kind: FieldKind = fieldKind(schema)): string {
	const base = (unwrap(schema).description ?? '').trim();
	const rule = ruleSummary(schema);
	const parts = [base];
	// The catalogue often states the bound already ("up to 20, each 1-1024 characters").
	const bound = rule?.match(/\d+/g)?.at(-1);
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

/** What the editor calls the field of schema property `name`; errors name it the same way. */
export function fieldLabel(name: string, raw: JsonSchema | undefined): string {
	return (raw && unwrap(raw).title) ?? humanize(name);
}

/** The parameter type, default and type options that fit a field of `kind`. */
function kindFields(
	schema: JsonSchema,
	kind: FieldKind,
	description: string,
): Partial<INodeProperties> {
	const example = exampleValue(schema);
	switch (kind) {
		case 'options':
			return {
				type: 'options',
				options: schemaOptions(schema),
				default:
					typeof schema.default === 'string' ? schema.default : (stringEnum(schema)?.[0] ?? ''),
			};
		case 'optionsList':
			return {
				type: 'multiOptions',
				options: schemaOptions(unwrap(schema.items ?? {})),
				default: [],
			};
		case 'dateTime':
			return { type: 'dateTime' };
		case 'integer':
		case 'number':
			return {
				type: 'number',
				default: typeof schema.default === 'number' ? schema.default : (schema.minimum ?? 0),
				typeOptions: {
					...(schema.minimum !== undefined ? { minValue: schema.minimum } : {}),
					...(schema.maximum !== undefined ? { maxValue: schema.maximum } : {}),
					...(kind === 'integer' ? { numberPrecision: 0 } : {}),
				},
			};
		case 'boolean':
			return { type: 'boolean', default: schema.default === true };
		case 'json':
			// An example as the default would be sent as if it were real data; it goes in the description.
			return {
				type: 'json',
				default: primaryType(schema) === 'array' ? '[]' : '{}',
				description: `${description} Example: ${JSON.stringify(example)}`.trim(),
			};
		default:
			return {
				default: stringDefault(schema),
				...((schema.maxLength ?? 0) > 300 ? { typeOptions: { rows: 4 } } : {}),
				...(typeof example === 'string' && example !== ''
					? { placeholder: `e.g. ${example.split('\n')[0]}` }
					: {}),
			};
	}
}

/** The n8n parameter for schema property `name`. */
export function fieldProperty(
	name: string,
	raw: JsonSchema,
	options: FieldPropertyOptions = {},
): INodeProperties {
	const schema = unwrap(raw);
	const kind = fieldKind(schema);
	const description = describeField(schema, kind);
	const property: INodeProperties = {
		displayName: options.displayName ?? fieldLabel(name, schema),
		name: options.parameterName ?? name,
		type: 'string',
		default: '',
		description,
		...kindFields(schema, kind, description),
	};
	if (options.required) property.required = true;
	if (options.displayOptions) property.displayOptions = options.displayOptions;
	if (options.default !== undefined) property.default = options.default;
	return property;
}
