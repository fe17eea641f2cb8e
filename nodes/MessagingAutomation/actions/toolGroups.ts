import type { INodeProperties } from 'n8n-workflow';

import { catalogue } from '../../shared/catalogue';
import { toolJsonSchema } from '../../shared/catalogue/jsonSchema';
import type { ToolAccess, ToolDefinition } from '../../shared/catalogue/types';
import { asSchema, schemaFields } from '../helpers/jsonSchema';

/*
 * Which tools get which extra parameters and behaviour: read from what each catalogue entry
 * declares (paging, simplify, downloadsLink, batch, csvAnalysis), never from tool names.
 */

/**
 * Fields the node fills itself, never shown as input fields: the paging of list tools, which
 * Return All and Limit drive, and the idempotency key of writes (read tools such as get_operation
 * take a key as what to look up). Tools the catalogue does not know count as writes.
 */
export function managedFields(tool: { definition?: ToolDefinition; access?: ToolAccess }): readonly string[] {
	const paging = tool.definition?.paging;
	if (paging) return [paging.cursor, paging.limit];
	return tool.access === 'read' ? [] : ['idempotencyKey'];
}

export function catalogueFields(definition: ToolDefinition) {
	return schemaFields(asSchema(toolJsonSchema(definition)), managedFields({ definition, access: definition.access }));
}

/** The input modes the editor offers for a catalogue tool, from what it declares. */
export type InputModeSet = 'none' | 'plain' | 'batch' | 'csv';

export function inputModeSet(tool: ToolDefinition): InputModeSet {
	if (tool.csvAnalysis) return 'csv';
	if (tool.batch) return 'batch';
	return catalogueFields(tool).length > 0 ? 'plain' : 'none';
}

/** The catalogue tools that `declares` picks. */
export function toolsThat(declares: (tool: ToolDefinition) => boolean): readonly ToolDefinition[] {
	return catalogue.filter(declares);
}

type DisplayOptions = NonNullable<INodeProperties['displayOptions']>;
type ShowConditions = NonNullable<DisplayOptions['show']>;

/** Where `tool` is chosen: its resource and operation, plus any further conditions. */
export function showForTool(tool: ToolDefinition, extra: ShowConditions = {}): DisplayOptions {
	return { show: { resource: [tool.resource], operation: [tool.operation.value], ...extra } };
}

/**
 * One copy of a parameter per resource for a set of tools. Operation values repeat across
 * resources (`get`, `delete`), so one `show` naming several resources would match too much.
 */
export function forTools(
	tools: readonly ToolDefinition[],
	build: (displayOptions: DisplayOptions) => INodeProperties,
	extra: ShowConditions = {},
): INodeProperties[] {
	const byResource = new Map<string, string[]>();
	for (const tool of tools) {
		byResource.set(tool.resource, [...(byResource.get(tool.resource) ?? []), tool.operation.value]);
	}
	return [...byResource].map(([resource, operations]) =>
		build({ show: { resource: [resource], operation: operations, ...extra } }),
	);
}
