import type { INodeProperties } from 'n8n-workflow';

import { catalogue } from '../../../../shared/catalogue';
import type { FieldChoice, ToolDefinition } from '../../../../shared/catalogue/types';
import { asSchema, unwrap } from '../../../helpers/jsonSchema';
import { capitalize, humanize, singular } from '../../../helpers/naming';
import { collectionForModel, withModelVariant } from '../../agent/modelFields';
import { catalogueFields, inputModeSet, showForTool } from '../../toolGroups';
import { fieldProperty } from './fieldProperty';
import { planFields, type PlacedField } from './layout';

/*
 * The "Fields" input mode of every catalogue tool, generated from its schema and layout: required
 * fields and the tool's chosen few up front, the rest under "Additional Fields". In the batched
 * mode the list being split is replaced by one element per input item.
 */

export type InputMode = 'fields' | 'batch' | 'mapper' | 'json' | 'csvItems' | 'csvBinary';

const CSV_SOURCE_MODES: InputMode[] = ['fields', 'csvItems', 'csvBinary'];

/** Modes in which a required field of `tool` is asked for. */
function requiredFieldModes(tool: ToolDefinition, field: string): InputMode[] {
	const modes = inputModeSet(tool);
	if (modes === 'csv') return field === tool.csvAnalysis?.field ? ['fields'] : CSV_SOURCE_MODES;
	if (modes === 'batch') return field === tool.batch?.field ? ['fields'] : ['fields', 'batch'];
	return ['fields'];
}

function optionalFieldModes(tool: ToolDefinition): InputMode[] {
	return inputModeSet(tool) === 'csv' ? CSV_SOURCE_MODES : ['fields'];
}

/** An up-front field; as an AI Agent tool, a model fills it (see agent/modelFields.ts). */
function upFrontField(tool: ToolDefinition, placed: PlacedField): INodeProperties[] {
	const { field } = placed;
	const modes = field.required ? requiredFieldModes(tool, field.name) : optionalFieldModes(tool);
	const extra = placed.when ? { [placed.when.parameter]: [placed.when.option] } : {};
	const property = fieldProperty(field.name, field.schema, {
		required: placed.required,
		displayOptions: showForTool(tool, { inputMode: modes, ...extra }),
	});
	return withModelVariant(property, field.schema, true);
}

/** The selector of a choice: its options are the fields it chooses between. */
export function choiceProperty(choice: FieldChoice, displayOptions: INodeProperties['displayOptions']): INodeProperties {
	const initial = choice.options[0].field;
	return {
		displayName: choice.displayName,
		name: choice.parameter,
		type: 'options',
		noDataExpression: true,
		options: choice.options.map((option) => ({ name: option.name, value: option.field, description: option.description })),
		default: initial,
		description: choice.description,
		displayOptions,
	};
}

function additionalFields(tool: ToolDefinition, fields: PlacedField[]): INodeProperties[] {
	if (fields.length === 0) return [];
	const schemas = Object.fromEntries(fields.map(({ field }) => [field.name, field.schema]));
	return collectionForModel(
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: showForTool(tool, { inputMode: optionalFieldModes(tool) }),
			options: fields
				.map(({ field }) => fieldProperty(field.name, field.schema))
				.sort((a, b) => a.displayName.localeCompare(b.displayName)),
		},
		schemas,
	);
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
	const displayOptions = showForTool(tool, { inputMode: ['batch'] });
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
	const plan = planFields(tool, catalogueFields(tool));
	const upFront = plan.upFront.flatMap((entry) =>
		entry.kind === 'choice'
			? [choiceProperty(entry.choice, showForTool(tool, { inputMode: optionalFieldModes(tool) }))]
			: upFrontField(tool, entry.placed),
	);
	return [...upFront, ...batchElementFields(tool), ...additionalFields(tool, plan.additional)];
}

export const curatedFields: INodeProperties[] = catalogue.flatMap(toolFields);
