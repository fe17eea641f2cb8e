import { catalogue } from '../../shared/catalogue';
import { toolJsonSchema } from '../../shared/catalogue/jsonSchema';
import type { ToolDefinition } from '../../shared/catalogue/types';
import { asSchema, schemaFields } from '../helpers/jsonSchema';

/*
 * Which tools get which extra behaviour. Everything is derived from the catalogue except the
 * list tools, which the spec names without shapes (only the live schema describes them).
 */

/** Fields the node fills itself; never shown as an input field. */
export const MANAGED_FIELDS = ['idempotencyKey'] as const;

export const CSV_TOOL = 'analyze_campaign_csv';
export const ATTACHMENT_TOOL = 'get_attachment_link';
export const OPERATION_TOOL = 'get_operation';
export const SEND_STATUS_TOOL = 'get_send_status';

/** List and search tools named by the spec; Return All follows whatever cursor they return. */
export const PAGINATED_TOOLS = ['list_conversations', 'get_messages', 'search_messages', 'search_attachments'];

/** Tools the spec names without shapes: offered even when the live list cannot be loaded. */
export const SPEC_ONLY_TOOLS = [...PAGINATED_TOOLS, 'get_business_template', 'get_business_pricing_analytics'];

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

export const CATALOGUE_TOOLS = catalogue.map((tool) => tool.name);

export function catalogueFields(definition: ToolDefinition) {
	return schemaFields(asSchema(toolJsonSchema(definition)), MANAGED_FIELDS);
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
