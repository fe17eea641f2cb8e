import type { OutcomeLookup, ToolDefinition } from './types';
import { toolEntries } from './tools';

/** Every tool of the node, one entry per file in tools/ (listed in tools/index.ts). */
export const catalogue: readonly ToolDefinition[] = toolEntries;

const byName = new Map(catalogue.map((tool) => [tool.name, tool]));

/**
 * The entry for `name`, or undefined for tools only the live service describes
 * (their input schema then comes from GET /api/v1/tools).
 */
export function findTool(name: string): ToolDefinition | undefined {
	return byName.get(name);
}

/** The node's operation `operation` of `resource`, if a catalogue tool serves it. */
export function findOperation(resource: string, operation: string): ToolDefinition | undefined {
	return catalogue.find((tool) => tool.resource === resource && tool.operation.value === operation);
}

/** The read tool that answers the outcome look-up `lookup` (get_operation, get_send_status). */
export function lookupTool(lookup: OutcomeLookup): ToolDefinition | undefined {
	return catalogue.find((tool) => tool.answersLookup === lookup);
}
