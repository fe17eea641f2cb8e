import type { INodeProperties } from 'n8n-workflow';

import { catalogue } from '../../../../shared/catalogue';
import type { ToolDefinition } from '../../../../shared/catalogue/types';
import { asSchema, unwrap, type SchemaField } from '../../../helpers/jsonSchema';
import { capitalize, humanize, singular } from '../../../helpers/naming';
import { BATCHABLE_TOOL_NAMES, catalogueFields, CSV_TOOL } from '../../toolGroups';
import { fieldProperty } from './fieldProperty';

/*
 * The "Fields" input mode of every catalogue tool, generated from its schema: required fields
 * as parameters of their own, optional ones in an "Additional Fields" collection. In the
 * batched mode the list being split is replaced by one element per input item.
 */

export type InputMode = 'fields' | 'batch' | 'mapper' | 'json' | 'csvItems' | 'csvBinary';

const CSV_SOURCE_MODES: InputMode[] = ['fields', 'csvItems', 'csvBinary'];

function showFor(tool: ToolDefinition, modes: InputMode[]): INodeProperties['displayOptions'] {
	return { show: { resource: [tool.resource], operation: [tool.name], inputMode: modes } };
}

/** Modes in which a required field of `tool` is asked for. */
function requiredFieldModes(tool: ToolDefinition, field: string): InputMode[] {
	if (tool.name === CSV_TOOL) return field === 'csv' ? ['fields'] : CSV_SOURCE_MODES;
	if (BATCHABLE_TOOL_NAMES.includes(tool.name)) return field === tool.batch?.field ? ['fields'] : ['fields', 'batch'];
	return ['fields'];
}

function optionalFieldModes(tool: ToolDefinition): InputMode[] {
	return tool.name === CSV_TOOL ? CSV_SOURCE_MODES : ['fields'];
}

function additionalFields(tool: ToolDefinition, fields: SchemaField[]): INodeProperties[] {
	if (fields.length === 0) return [];
	return [
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: showFor(tool, optionalFieldModes(tool)),
			options: fields
				.map((field) => fieldProperty(field.name, field.schema))
				.sort((a, b) => a.displayName.localeCompare(b.displayName)),
		},
	];
}

/** Parameter name of a batched element field: `batchPhoneNumber`, or `batchValue` for plain strings. */
export function batchParameterName(property?: string): string {
	return property === undefined ? 'batchValue' : `batch${capitalize(property)}`;
}

/** One element of the split list per input item, each field defaulting to the same-named item field. */
function batchElementFields(tool: ToolDefinition): INodeProperties[] {
	const listField = tool.batch?.field;
	const list = catalogueFields(tool).find((field) => field.name === listField);
	if (!listField || !list) return [];
	const element = unwrap(asSchema(unwrap(list.schema).items));
	const displayOptions = showFor(tool, ['batch']);
	if (!element.properties) {
		const name = singular(listField);
		return [
			fieldProperty(name, element, {
				parameterName: batchParameterName(),
				displayName: humanize(name),
				required: true,
				default: `={{ $json.${name} }}`,
				displayOptions,
			}),
		];
	}
	const required = new Set(element.required ?? []);
	return Object.entries(element.properties).map(([name, schema]) =>
		fieldProperty(name, asSchema(schema), {
			parameterName: batchParameterName(name),
			required: required.has(name),
			default: `={{ $json.${name} }}`,
			displayOptions,
		}),
	);
}

function toolFields(tool: ToolDefinition): INodeProperties[] {
	const fields = catalogueFields(tool);
	const required = fields
		.filter((field) => field.required)
		.map((field) =>
			fieldProperty(field.name, field.schema, {
				required: true,
				displayOptions: showFor(tool, requiredFieldModes(tool, field.name)),
			}),
		);
	return [...required, ...additionalFields(tool, fields.filter((field) => !field.required)), ...batchElementFields(tool)];
}

export const curatedFields: INodeProperties[] = catalogue.flatMap(toolFields);
