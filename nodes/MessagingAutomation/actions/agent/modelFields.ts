import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { fieldKind, unwrap, type JsonSchema } from '../../helpers/jsonSchema';
import { fromAiExpression, fromAiKey, type FromAiType } from './fromAi';

/*
 * What changes when n8n offers the node to an AI Agent (its `…Tool` type, `@tool` in display
 * options): the fields a model should fill default to `$fromAI` placeholders that carry the
 * field's description and format rules; nothing untyped is offered (JSON values become JSON
 * text, the JSON input mode is not offered); one call is one item, so the modes that read many
 * items (batches, CSV built from items or files) are not offered either.
 */

type DisplayOptions = NonNullable<INodeProperties['displayOptions']>;

/** `property`, shown only in the plain node (`false`) or only in the tool (`true`). */
export function onlyWhenTool(property: INodeProperties, tool: boolean): INodeProperties {
	const displayOptions: DisplayOptions = property.displayOptions ?? {};
	return {
		...property,
		displayOptions: { ...displayOptions, show: { ...displayOptions.show, '@tool': [tool] } },
	};
}

/* Hints meant for workflow authors only. */
const FOR_PEOPLE_ONLY = / \(or an expression returning a list\)/g;

function placeholderType(schema: JsonSchema): FromAiType | undefined {
	const kind = fieldKind(schema);
	if (kind === 'integer' || kind === 'number') return 'number';
	if (kind === 'string' || kind === 'dateTime' || kind === 'stringList' || kind === 'json')
		return 'string';
	// Choices and switches (channel, opt-in confirmations) stay with the workflow author.
	return undefined;
}

/** The field as a model sees it: JSON values as JSON text, so the parameter is typed. */
function typedForModel(property: INodeProperties, schema: JsonSchema): INodeProperties {
	if (fieldKind(schema) !== 'json') return property;
	return {
		...property,
		type: 'string',
		default: '',
		description: `${property.description ?? ''} Give it as JSON text.`.trim(),
	};
}

/** What the model is told about a field: its description with the rules, and an example. */
export function modelDescription(property: INodeProperties, schema: JsonSchema): string {
	const example = unwrap(schema).examples?.[0];
	const base = (property.description ?? '').replace(FOR_PEOPLE_ONLY, '');
	const hasExample = base.includes('Example:');
	return typeof example === 'string' && !hasExample
		? `${base.replace(/[^.!?]$/, '$&.')} Example: ${example}`
		: base;
}

/**
 * The plain field and its tool variant. With `fill`, the variant's default is a placeholder the
 * model fills (keyed as the editor keys it: "Phone Number" → `Phone_Number`).
 */
export function withModelVariant(
	property: INodeProperties,
	schema: JsonSchema,
	fill: boolean,
): INodeProperties[] {
	const type = placeholderType(schema);
	if (type === undefined) return [property];
	const typed = typedForModel(property, schema);
	if (!fill && typed === property) return [property];
	const variant = { ...typed };
	if (fill)
		variant.default = fromAiExpression(
			fromAiKey(property.displayName),
			modelDescription(typed, schema),
			type,
		);
	return [onlyWhenTool(property, false), onlyWhenTool(variant, true)];
}

/** Additional Fields for the tool: JSON values as JSON text. */
export function collectionForModel(
	collection: INodeProperties,
	schemas: Record<string, JsonSchema>,
): INodeProperties[] {
	const options = (collection.options ?? []) as INodeProperties[];
	if (!options.some((option) => fieldKind(schemas[option.name] ?? {}) === 'json'))
		return [collection];
	const typed = options.map((option) => typedForModel(option, schemas[option.name] ?? {}));
	return [onlyWhenTool(collection, false), onlyWhenTool({ ...collection, options: typed }, true)];
}

/* Input modes a single tool call can use: fields (CSV text for the CSV tool) and the mapper. */
const MODES_FOR_MODELS = ['fields', 'mapper'];

/**
 * Adapts the input parameters for the tool: Input Mode offers only single-call, typed modes and
 * the JSON input (an untyped object) is not offered; everything else is shared.
 */
export function inputModesForModels(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		if (property.name === 'jsonInput') return [onlyWhenTool(property, false)];
		if (property.name !== 'inputMode') return [property];
		const options = ((property.options ?? []) as INodePropertyOptions[]).filter((option) =>
			MODES_FOR_MODELS.includes(String(option.value)),
		);
		const initial = options.some((option) => option.value === 'fields')
			? 'fields'
			: options[0]?.value;
		return [
			onlyWhenTool(property, false),
			onlyWhenTool({ ...property, options, default: initial ?? '' }, true),
		];
	});
}
