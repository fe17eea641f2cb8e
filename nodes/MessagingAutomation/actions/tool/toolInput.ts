import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ValidationIssue } from '../../../shared/catalogue/validate';
import { coerceToSchema } from '../../helpers/coerce';
import { isRecord } from '../../../shared/guards';
import { isUnsafePropertyName, propertySchema, schemaFields, type JsonSchema } from '../../helpers/jsonSchema';
import { managedFields } from '../toolGroups';
import type { InputMode } from './fields/curatedFields';
import { placedFields, planFields } from './fields/layout';
import { invalidInput, type ToolSchema } from './toolSchema';

/*
 * Reads one item's tool input in the chosen mode and shapes every value to the schema. Only
 * properties the schema names are taken from fields and the mapper; JSON input is passed on
 * whole, so validation can name whatever does not belong.
 */

type Input = Record<string, unknown>;

export function inputModeOf(context: IExecuteFunctions, tool: ToolSchema): InputMode {
	const fallback: InputMode = tool.definition ? 'fields' : 'mapper';
	return context.getNodeParameter('inputMode', 0, fallback) as InputMode;
}

/** Adds `value` (shaped to `schema`) under `name`, or records why it cannot be used. */
function put(input: Input, issues: ValidationIssue[], name: string, value: unknown, schema: JsonSchema | undefined): void {
	const coerced = schema ? coerceToSchema(value, schema) : { value };
	if ('issue' in coerced) issues.push({ path: name, message: coerced.issue });
	else if (coerced.value !== undefined) input[name] = coerced.value;
}

/** The catalogue fields of the "Fields" mode; `omit` leaves out fields another mode supplies. */
export function readFields(context: IExecuteFunctions, itemIndex: number, tool: ToolSchema, omit: readonly string[] = []): Input {
	const input: Input = {};
	const issues: ValidationIssue[] = [];
	const fields = schemaFields(tool.schema ?? {}, [...managedFields(tool), ...omit]);
	const placed = tool.definition ? placedFields(planFields(tool.definition, fields)) : [];
	const additional = context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	for (const { field, upFront, when } of placed) {
		if (when && context.getNodeParameter(when.parameter, itemIndex, undefined) !== when.option) continue;
		if (upFront) put(input, issues, field.name, context.getNodeParameter(field.name, itemIndex, undefined), field.schema);
		else if (field.name in additional) put(input, issues, field.name, additional[field.name], field.schema);
	}
	if (issues.length > 0) throw invalidInput(tool, issues);
	return input;
}

function readMapper(context: IExecuteFunctions, itemIndex: number, tool: ToolSchema): Input {
	const input: Input = {};
	const issues: ValidationIssue[] = [];
	const properties = tool.schema?.properties;
	const mode = context.getNodeParameter('toolInput.mappingMode', itemIndex, 'defineBelow') as string;
	const source =
		mode === 'autoMapInputData'
			? context.getInputData()[itemIndex].json
			: (context.getNodeParameter('toolInput.value', itemIndex, {}) as IDataObject | null) ?? {};
	for (const [name, value] of Object.entries(source)) {
		if (managedFields(tool).includes(name)) continue;
		// Fields the live schema no longer names (a stale mapping, an unrelated item field) are not sent,
		// nor `__proto__` / `constructor`, which `name in properties` would find on Object itself.
		const property = propertySchema(tool.schema, name);
		if ((properties && !property) || isUnsafePropertyName(name)) continue;
		put(input, issues, name, value, property);
	}
	if (issues.length > 0) throw invalidInput(tool, issues);
	return input;
}

function readJson(context: IExecuteFunctions, itemIndex: number, tool: ToolSchema): Input {
	const raw = context.getNodeParameter('jsonInput', itemIndex, '{}') as unknown;
	let parsed: unknown = raw;
	if (typeof raw === 'string') {
		try {
			parsed = raw.trim() === '' ? {} : JSON.parse(raw);
		} catch {
			throw invalidInput(tool, [{ path: '', message: 'is not valid JSON' }]);
		}
	}
	if (!isRecord(parsed)) throw invalidInput(tool, [{ path: '', message: 'must be a JSON object' }]);
	return parsed;
}

/** The input of one call in the single-call modes (fields, mapper, JSON). */
export function readToolInput(context: IExecuteFunctions, itemIndex: number, tool: ToolSchema, mode: InputMode): Input {
	if (mode === 'json') return readJson(context, itemIndex, tool);
	if (mode === 'mapper') return readMapper(context, itemIndex, tool);
	if (tool.definition && (mode === 'fields' || mode === 'batch')) return readFields(context, itemIndex, tool);
	return {};
}
