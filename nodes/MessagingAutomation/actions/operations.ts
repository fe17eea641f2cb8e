import { SEND_AND_WAIT_OPERATION, type INodeProperties, type INodePropertyOptions } from 'n8n-workflow';

import { catalogue, findOperation } from '../../shared/catalogue';
import type { ToolOperation } from '../../shared/catalogue/types';
import { RESOURCE_OPTIONS, type NodeResource } from './resources';

/*
 * The Operation dropdown of every resource, as static options: the nodes panel, its action
 * list, the automatic node name ("Send a message") and the AI tool's name are all built from
 * them. Webhook operations are not tools and live in webhook/description.ts.
 */

export const ACCOUNT_GET: ToolOperation = {
	value: 'get',
	name: 'Get',
	action: 'Get the account',
	summary: 'The account, its numbers, readiness, and the name and scopes of the key',
	default: true,
};

/** Any tool by name, for tools the catalogue does not know; its input follows the live schema. */
export const CALL_ANOTHER_TOOL: ToolOperation = {
	value: 'callTool',
	name: 'Call Another Tool',
	action: 'Call another tool',
	summary: 'Call any tool your API key may use, by its name',
	default: true,
};

/** Sends with send_message, then waits for the person's answer (see sendAndWait/). */
export const SEND_AND_WAIT: ToolOperation = {
	value: SEND_AND_WAIT_OPERATION,
	name: 'Send and Wait for Response',
	action: 'Send a message and wait for response',
	summary: 'Ask a person over chat; continue once they approve or answer',
};

const NON_TOOL_OPERATIONS: Partial<Record<NodeResource, ToolOperation[]>> = {
	account: [ACCOUNT_GET],
	message: [SEND_AND_WAIT],
	other: [CALL_ANOTHER_TOOL],
};

export function operationsOf(resource: NodeResource): ToolOperation[] {
	return [
		...(NON_TOOL_OPERATIONS[resource] ?? []),
		...catalogue.filter((tool) => tool.resource === resource).map((tool) => tool.operation),
	];
}

function operationProperty(resource: NodeResource): INodeProperties {
	const operations = operationsOf(resource);
	const initial = (operations.find((operation) => operation.default) ?? operations[0]).value;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: operations
			.map(({ value, name, action, summary }) => ({ name, value, action, description: summary }))
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: initial,
	};
}

const TOOL_RESOURCES = RESOURCE_OPTIONS.map((option) => option.value).filter((resource) => resource !== 'webhook');

export const operationProperties: INodeProperties[] = TOOL_RESOURCES.map(operationProperty);

/**
 * The node's subtitle: the chosen action in words ("Send a message"), looked up from the
 * Operation dropdowns of `properties`, the raw value for anything they do not hold.
 */
export function operationSubtitle(properties: readonly INodeProperties[]): string {
	const table: Record<string, string> = {};
	for (const property of properties.filter((candidate) => candidate.name === 'operation')) {
		const resource = String(property.displayOptions?.show?.resource?.[0] ?? '');
		for (const option of (property.options ?? []) as INodePropertyOptions[]) {
			if (option.action) table[`${resource}/${String(option.value)}`] = option.action;
		}
	}
	return `={{ ${JSON.stringify(table)}[$parameter["resource"] + "/" + $parameter["operation"]] ?? $parameter["operation"] }}`;
}

/**
 * The tool an operation calls: the catalogue's for its operations, the chosen one for Call
 * Another Tool. Undefined for operations that are not tools (Account › Get, webhooks).
 */
export function toolOfOperation(resource: string, operation: string, toolName: () => string): string | undefined {
	if (resource === 'other' && operation === CALL_ANOTHER_TOOL.value) return toolName().trim();
	return findOperation(resource, operation)?.name;
}
