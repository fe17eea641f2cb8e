import { z } from 'zod/v4';
import type { ToolDefinition } from './types';

/** A JSON Schema object as `z.toJSONSchema` produces it. */
export type ToolJsonSchema = z.core.JSONSchema.BaseSchema;

/* Derivation walks the whole schema; entries are immutable, so each is derived once. */
const cache = new WeakMap<Pick<ToolDefinition, 'input'>, ToolJsonSchema>();

/**
 * The JSON Schema of a tool's input, derived from its zod schema (never written by hand).
 * `io: 'input'` describes what a caller may send. Cross-field rules (e.g. "text or templateName")
 * cannot be expressed here; the tool description states them.
 */
export function toolJsonSchema(definition: Pick<ToolDefinition, 'input'>): ToolJsonSchema {
	let schema = cache.get(definition);
	if (!schema) {
		schema = z.toJSONSchema(definition.input, { io: 'input' });
		cache.set(definition, schema);
	}
	return schema;
}
