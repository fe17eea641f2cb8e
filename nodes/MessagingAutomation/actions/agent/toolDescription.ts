import type { INodeProperties } from 'n8n-workflow';

import { findOperation } from '../../../shared/catalogue';
import type { ToolOperation } from '../../../shared/catalogue/types';
import { operationsOf } from '../operations';
import { RESOURCE_OPTIONS } from '../resources';

/*
 * The description an AI Agent reads for the tool. n8n adds a generic "Tool Description" field
 * to every tool node unless the node has its own, and its automatic text is only "<action> in
 * Messaging Automation". The node brings its own: one per operation, defaulting to what the
 * call does, in the words of the operation list, and still editable by the workflow author.
 */

const ONCE = 'Repeating the same call within one run carries it out only once.';

function lowerFirst(text: string): string {
	return text.charAt(0).toLowerCase() + text.slice(1);
}

/** "Send a message: send a text or an approved template to a number or a chat. …" */
export function operationToolDescription(resource: string, operation: ToolOperation): string {
	const sentence = `${operation.action}: ${lowerFirst(operation.summary)}.`;
	return findOperation(resource, operation.value)?.access === 'write'
		? `${sentence} ${ONCE}`
		: sentence;
}

const FIELD = {
	displayName: 'Tool Description',
	name: 'toolDescription',
	type: 'string',
	default: '',
	typeOptions: { rows: 3 },
	description:
		'What the AI Agent is told this tool does. A specific description helps the model call it at the right time with the right values.',
} as const;

function resourceDescriptions(resource: string): INodeProperties[] {
	const operations =
		resource === 'webhook' ? [] : operationsOf(resource as Parameters<typeof operationsOf>[0]);
	const own = operations.map(
		(operation): INodeProperties => ({
			...FIELD,
			default: operationToolDescription(resource, operation),
			displayOptions: {
				show: { '@tool': [true], resource: [resource], operation: [operation.value] },
			},
		}),
	);
	// Operations without a text of their own: left empty, n8n describes them from the operation's name.
	const rest: INodeProperties = {
		...FIELD,
		default: '',
		placeholder: 'Leave empty to describe the tool from its operation',
		displayOptions: {
			show: { '@tool': [true], resource: [resource] },
			...(operations.length > 0
				? { hide: { operation: operations.map((operation) => operation.value) } }
				: {}),
		},
	};
	return [...own, rest];
}

/** Shown only when the node is an AI Agent tool (`@tool`). */
export const toolDescriptionProperties: INodeProperties[] = RESOURCE_OPTIONS.flatMap((option) =>
	resourceDescriptions(option.value),
);
