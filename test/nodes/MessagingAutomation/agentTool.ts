/**
 * The action node as n8n offers it to an AI Agent, built the way n8n builds it: the synthetic
 * `…Tool` node type (n8n renames the type; our node brings its own Tool Description, so n8n adds
 * none), parameters filled with the defaults of that type, the tool's zod schema from n8n-core's
 * own `getSchema` (the `$fromAI` placeholders), and the JSON Schema LangChain sends to OpenAI.
 */
import { DynamicStructuredTool } from '@langchain/core/tools';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { getSchema } from 'n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool';
import {
	NodeHelpers,
	nodeNameToToolName,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { MessagingAutomation } from '../../../nodes/MessagingAutomation/MessagingAutomation.node';

export const TOOL_TYPE = 'messagingAutomationTool';

const base = new MessagingAutomation();
export const toolDescription: INodeTypeDescription = { ...base.description, name: TOOL_TYPE };
export const toolNodeType = { ...base, description: toolDescription } as unknown as INodeType;

/** A tool node with `parameters`, completed with the tool type's defaults as n8n's Workflow does. */
export function toolNode(parameters: INodeParameters, name = 'Messaging Automation Tool'): INode {
	const node: INode = {
		id: 'tool-node',
		name,
		type: TOOL_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	node.parameters =
		NodeHelpers.getNodeParameters(
			toolDescription.properties,
			parameters,
			true,
			false,
			node,
			toolDescription,
		) ?? {};
	return node;
}

export interface ModelTool {
	name: string;
	description: string;
	/** The JSON Schema of the function's parameters, as sent to OpenAI. */
	parameters: Record<string, unknown>;
}

/** What the model is given for `node`. */
export function modelTool(node: INode): ModelTool {
	const description = NodeHelpers.getToolDescriptionForNode(node, toolNodeType);
	const tool = new DynamicStructuredTool({
		name: nodeNameToToolName(node),
		description,
		schema: getSchema(node),
		func: async () => '',
	});
	const { function: fn } = convertToOpenAITool(tool);
	return {
		name: fn.name,
		description: fn.description ?? '',
		parameters: fn.parameters as Record<string, unknown>,
	};
}

/** Every resource and operation of the node, as the editor offers them. */
export function everyOperation(): Array<{ resource: string; operation: string }> {
	const resources = (toolDescription.properties.find((property) => property.name === 'resource')
		?.options ?? []) as INodePropertyOptions[];
	return resources.flatMap(({ value: resource }) =>
		toolDescription.properties
			.filter(
				(property) =>
					property.name === 'operation' &&
					property.displayOptions?.show?.resource?.includes(resource),
			)
			.flatMap((property) =>
				(property.options as INodePropertyOptions[]).map(({ value }) => ({
					resource: String(resource),
					operation: String(value),
				})),
			),
	);
}

/** The properties shown for `node` (one per name: the displayed variant). */
export function shownProperties(node: INode): INodeProperties[] {
	const shown = new Map<string, INodeProperties>();
	for (const property of toolDescription.properties) {
		if (shown.has(property.name) || !(property.name in node.parameters)) continue;
		if (NodeHelpers.displayParameter(node.parameters, property, node, toolDescription))
			shown.set(property.name, property);
	}
	return [...shown.values()];
}
