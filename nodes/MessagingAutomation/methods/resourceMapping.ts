import type { FieldType, ILoadOptionsFunctions, ResourceMapperField, ResourceMapperFields } from 'n8n-workflow';

import { findTool } from '../../shared/catalogue';
import { toolJsonSchema } from '../../shared/catalogue/jsonSchema';
import { toolOfOperation } from '../actions/operations';
import { schemaOptions } from '../actions/tool/fields/fieldProperty';
import { managedFields } from '../actions/toolGroups';
import {
	asSchema,
	exampleValue,
	fieldKind,
	primaryType,
	unwrap,
	type FieldKind,
	type JsonSchema,
	type SchemaField,
} from '../helpers/jsonSchema';
import { humanize } from '../helpers/naming';
import { createNodeClient, EDITOR_LOOKUP } from '../../shared/transport/nodeClient';
import { findLiveTool } from '../toolList/liveTools';

const FIELD_TYPES: Record<FieldKind, FieldType> = {
	string: 'string',
	dateTime: 'dateTime',
	number: 'number',
	integer: 'number',
	boolean: 'boolean',
	options: 'options',
	stringList: 'array',
	optionsList: 'array',
	json: 'object',
};

function mapperField(field: SchemaField): ResourceMapperField {
	const schema = unwrap(field.schema);
	const kind = fieldKind(schema);
	const type = kind === 'json' && primaryType(schema) !== 'object' ? (primaryType(schema) === 'array' ? 'array' : 'string') : FIELD_TYPES[kind];
	const mapped: ResourceMapperField = {
		id: field.name,
		displayName: schema.title ?? humanize(field.name),
		required: field.required,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		type,
	};
	if (kind === 'options') mapped.options = schemaOptions(schema);
	if (type === 'array' || type === 'object') mapped.defaultValue = JSON.stringify(exampleValue(schema));
	return mapped;
}

/** The live schema of the tool (the catalogue's when the service cannot be asked). */
async function inputSchemaOf(context: ILoadOptionsFunctions, name: string): Promise<JsonSchema | undefined> {
	let live: JsonSchema | undefined;
	try {
		live = (await findLiveTool(context, await createNodeClient(context, EDITOR_LOOKUP), name))?.inputSchema;
	} catch {
		live = undefined;
	}
	const known = findTool(name);
	return live ?? (known ? asSchema(toolJsonSchema(known)) : undefined);
}

/** Resource-mapper fields from the tool's JSON Schema: titles, required, enums, types, examples. */
export async function getToolFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const name = toolOfOperation(
		this.getCurrentNodeParameter('resource') as string,
		this.getCurrentNodeParameter('operation') as string,
		() => (this.getCurrentNodeParameter('toolName') as string | undefined) ?? '',
	);
	const schema = name ? await inputSchemaOf(this, name) : undefined;
	if (!name || !schema) {
		return { fields: [], emptyFieldsNotice: 'No input schema is known for this tool. Use the JSON input mode instead.' };
	}
	const required = new Set(schema.required ?? []);
	const definition = findTool(name);
	const managed = managedFields({ definition, access: definition?.access });
	const fields = Object.entries(schema.properties ?? {})
		.filter(([property]) => !managed.includes(property))
		.map(([property, value]) => mapperField({ name: property, schema: asSchema(value), required: required.has(property) }));
	return { fields };
}
