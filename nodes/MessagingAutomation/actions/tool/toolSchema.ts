import { findTool } from '../../../shared/catalogue';
import { toolJsonSchema } from '../../../shared/catalogue/jsonSchema';
import type { ToolDefinition } from '../../../shared/catalogue/types';
import { validateToolInput, type ValidationIssue } from '../../../shared/catalogue/validate';
import { InputValidationError } from '../../../shared/client/errors';
import type { ToolListing } from '../../../shared/client/toolListing';
import { asSchema, type JsonSchema } from '../../helpers/jsonSchema';
import { validateAgainstSchema } from '../../helpers/validateJsonSchema';
import { modelIssueMessage } from '../agent/modelErrors';
import type { RunContext } from '../runContext';
import { issueText } from './issueText';

/** What the node knows about a tool's input: the catalogue entry, or the live listing. */
export interface ToolSchema {
	name: string;
	definition?: ToolDefinition;
	/** Live entry for tools the catalogue does not know. */
	listing?: ToolListing;
	/** JSON Schema of the input, when either source has one. */
	schema?: JsonSchema;
	access?: 'read' | 'write';
	/** The live schema of a catalogue tool whose shape is only assumed: the one input is checked against. */
	liveSchema?: JsonSchema;
	/** As an AI Agent tool: the parameter names the model fills fields by (errors use them). */
	modelNames?: Record<string, string>;
}

export async function toolSchema(run: RunContext, name: string): Promise<ToolSchema> {
	const definition = findTool(name);
	if (definition) {
		const known = {
			name,
			definition,
			schema: asSchema(toolJsonSchema(definition)),
			access: definition.access,
		};
		if (!definition.shapeAssumed) return known;
		const live = (await run.liveTool(name))?.inputSchema;
		return { ...known, liveSchema: live ? asSchema(live) : undefined };
	}
	const listing = await run.liveTool(name);
	return {
		name,
		listing,
		schema: listing?.inputSchema ? asSchema(listing.inputSchema) : undefined,
		access: listing?.access,
	};
}

export function invalidInput(
	tool: ToolSchema,
	issues: readonly ValidationIssue[],
): InputValidationError {
	const message = tool.modelNames
		? modelIssueMessage(tool.schema, issues, tool.modelNames)
		: `${issueText(tool.schema, issues)}. Nothing was sent.`;
	return new InputValidationError(message, {
		code: 'input_validation',
		field: issues[0]?.path || undefined,
	});
}

/**
 * Everything wrong with an input, before anything is sent: checked against the catalogue's zod
 * schema for tools the spec shapes (cross-field rules included), against the live JSON Schema
 * for the others. The idempotency key the client will add is taken into account, so a required body key
 * is not reported missing.
 */
export function inputIssues(
	tool: ToolSchema,
	input: Record<string, unknown>,
	idempotencyKey?: string,
): ValidationIssue[] {
	const takesKey =
		idempotencyKey !== undefined && tool.schema?.properties?.idempotencyKey !== undefined;
	const checked =
		takesKey && input.idempotencyKey === undefined ? { ...input, idempotencyKey } : input;
	if (tool.definition && !tool.definition.shapeAssumed) {
		const result = validateToolInput(tool.definition, checked);
		return result.ok ? [] : result.issues;
	}
	// Only what the service states is checked: an assumed shape is no rule.
	const schema = tool.definition ? tool.liveSchema : tool.schema;
	if (!schema) return [];
	const issues = validateAgainstSchema(schema, checked);
	const known = schema.properties;
	if (known && schema.additionalProperties !== false) {
		// Even where the schema would tolerate them, properties it does not name are never sent.
		for (const name of Object.keys(checked)) {
			if (!(name in known)) issues.push({ path: name, message: 'is not an accepted property' });
		}
	}
	return issues;
}

export function assertValidInput(
	tool: ToolSchema,
	input: Record<string, unknown>,
	idempotencyKey?: string,
): void {
	const issues = inputIssues(tool, input, idempotencyKey);
	if (issues.length > 0) throw invalidInput(tool, issues);
}
