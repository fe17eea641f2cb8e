import type { INodeProperties } from 'n8n-workflow';

import { catalogue, findTool } from '../../shared/catalogue';
import { toolJsonSchema } from '../../shared/catalogue/jsonSchema';
import type { ToolAccess, ToolDefinition } from '../../shared/catalogue/types';
import { asSchema, schemaFields } from '../helpers/jsonSchema';

/* Which tools get which extra behaviour; everything is derived from the catalogue. */

export const CSV_TOOL = 'analyze_campaign_csv';
export const ATTACHMENT_TOOL = 'get_attachment_link';
export const OPERATION_TOOL = 'get_operation';
export const SEND_STATUS_TOOL = 'get_send_status';

/** List and search tools; Return All follows whatever cursor they return. */
export const PAGINATED_TOOLS = ['list_conversations', 'get_messages', 'search_messages', 'search_attachments'];

/**
 * Fields the node fills itself, never shown as input fields: the idempotency key of writes
 * (read tools such as get_operation take a key as what to look up), and the paging of the
 * list tools, which Return All and Limit drive.
 */
export function managedFields(tool: { name: string; access?: ToolAccess }): readonly string[] {
	if (PAGINATED_TOOLS.includes(tool.name)) return ['cursor', 'limit'];
	return tool.access === 'read' ? [] : ['idempotencyKey'];
}

/** Read tools whose answers are large enough to deserve a Simplify switch. */
export const LARGE_RESPONSE_TOOLS = [
	...PAGINATED_TOOLS,
	'get_account_context',
	'get_business_health',
	'get_business_account',
	'get_business_messaging_analytics',
	'get_business_pricing_analytics',
	CSV_TOOL,
];

export function catalogueFields(definition: ToolDefinition) {
	return schemaFields(asSchema(toolJsonSchema(definition)), managedFields(definition));
}

/** Catalogue tools that take input of their own (the rest are called with `{}`). */
export const TOOLS_WITH_INPUT = catalogue.filter((tool) => catalogueFields(tool).length > 0).map((tool) => tool.name);

/**
 * Tools whose list can be split across calls, one element per input item. Creating tools are
 * left out although their list is bounded: splitting create_group would create several groups.
 */
export const BATCHABLE_TOOLS = catalogue.filter(
	(tool) => tool.batch !== undefined && !tool.name.startsWith('create_'),
);
export const BATCHABLE_TOOL_NAMES = BATCHABLE_TOOLS.map((tool) => tool.name);

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
	names: readonly string[],
	build: (displayOptions: DisplayOptions) => INodeProperties,
	extra: ShowConditions = {},
): INodeProperties[] {
	const byResource = new Map<string, string[]>();
	for (const tool of names.map((name) => findTool(name)).filter((tool) => tool !== undefined)) {
		byResource.set(tool.resource, [...(byResource.get(tool.resource) ?? []), tool.operation.value]);
	}
	return [...byResource].map(([resource, operations]) =>
		build({ show: { resource: [resource], operation: operations, ...extra } }),
	);
}
