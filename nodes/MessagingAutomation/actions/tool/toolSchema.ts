import { findTool } from '../../../shared/catalogue';
import { toolJsonSchema } from '../../../shared/catalogue/jsonSchema';
import type { ToolDefinition } from '../../../shared/catalogue/types';
import { formatIssues, validateToolInput, type ValidationIssue } from '../../../shared/catalogue/validate';
import { InputValidationError } from '../../../shared/client/errors';
import type { ToolListing } from '../../../shared/client/toolListing';
import { asSchema, type JsonSchema } from '../../helpers/jsonSchema';
import { validateAgainstSchema } from '../../helpers/validateJsonSchema';
import type { RunContext } from '../runContext';

/** What the node knows about a tool's input: the catalogue entry, or the live listing. */
export interface ToolSchema {
	name: string;
	definition?: ToolDefinition;
	/** Live entry for tools the catalogue does not know. */
	listing?: ToolListing;
	/** JSON Schema of the input, when either source has one. */
	schema?: JsonSchema;
	access?: 'read' | 'write';
}

export async function toolSchema(run: RunContext, name: string): Promise<ToolSchema> {
	const definition = findTool(name);
	if (definition) return { name, definition, schema: asSchema(toolJsonSchema(definition)), access: definition.access };
	const listing = await run.liveTool(name);
	return { name, listing, schema: listing?.inputSchema ? asSchema(listing.inputSchema) : undefined, access: listing?.access };
}

export function invalidInput(tool: string, issues: readonly ValidationIssue[]): InputValidationError {
	return new InputValidationError(`Invalid input for ${tool}: ${formatIssues(issues)}. Nothing was sent.`, {
		code: 'input_validation',
		field: issues[0]?.path || undefined,
	});
}

/**
 * Everything wrong with an input, before anything is sent: checked against the catalogue's zod
 * schema for known tools (cross-field rules included), against the live JSON Schema for the
 * others. The idempotency key the client will add is taken into account, so a required body key
 * is not reported missing.
 */
export function inputIssues(tool: ToolSchema, input: Record<string, unknown>, idempotencyKey?: string): ValidationIssue[] {
	const takesKey = idempotencyKey !== undefined && tool.schema?.properties?.idempotencyKey !== undefined;
	const checked = takesKey && input.idempotencyKey === undefined ? { ...input, idempotencyKey } : input;
	if (tool.definition) {
		const result = validateToolInput(tool.definition, checked);
		return result.ok ? [] : result.issues;
	}
	if (!tool.schema) return [];
	const issues = validateAgainstSchema(tool.schema, checked);
	const known = tool.schema.properties;
	if (known && tool.schema.additionalProperties !== false) {
		// Even where the schema would tolerate them, properties it does not name are never sent.
		for (const name of Object.keys(checked)) {
			if (!(name in known)) issues.push({ path: name, message: 'is not an accepted property' });
		}
	}
	return issues;
}

export function assertValidInput(tool: ToolSchema, input: Record<string, unknown>, idempotencyKey?: string): void {
	const issues = inputIssues(tool, input, idempotencyKey);
	if (issues.length > 0) throw invalidInput(tool.name, issues);
}
