import type { ToolAccess } from '../catalogue/types';
import { isRecord } from '../guards';

/** One tool the key may use, as GET /api/v1/tools describes it. */
export interface ToolListing {
	name: string;
	description?: string;
	/** JSON Schema of the tool's input. */
	inputSchema?: Record<string, unknown>;
	access?: ToolAccess;
}

type Entry = Record<string, unknown>;

const LIST_KEYS = ['tools', 'data', 'items', 'results'] as const;
const SCHEMA_KEYS = ['input_schema', 'inputSchema', 'parameters', 'schema', 'json_schema'] as const;

/** The array of entries, wherever the layout put it (bare array, `tools`, `data`, one level down). */
function findEntries(body: unknown, depth = 0): unknown[] {
	if (Array.isArray(body)) return body;
	if (!isRecord(body) || depth > 1) return [];
	for (const key of LIST_KEYS) {
		const entries = findEntries(body[key], depth + 1);
		if (entries.length > 0) return entries;
	}
	// `{ "send_message": { ... } }`: a map keyed by tool name.
	const values = Object.entries(body).filter((pair): pair is [string, Entry] => isRecord(pair[1]));
	if (depth === 0 && values.length > 0 && values.every(([, value]) => !('name' in value))) {
		return values.map(([name, value]) => ({ name, ...value }));
	}
	return [];
}

function schemaOf(entry: Entry): Record<string, unknown> | undefined {
	for (const key of SCHEMA_KEYS) {
		const value = entry[key];
		if (isRecord(value)) return value;
		if (typeof value === 'string') {
			try {
				const parsed: unknown = JSON.parse(value);
				if (isRecord(parsed)) return parsed;
			} catch {
				// A schema that is not JSON is left out; the catalogue or JSON mode still work.
			}
		}
	}
	return undefined;
}

function accessOf(entry: Entry): ToolAccess | undefined {
	for (const key of ['access', 'kind', 'type', 'mode']) {
		const value = entry[key];
		if (value === 'read' || value === 'write') return value;
	}
	const readOnly =
		entry.read_only ?? entry.readOnly ?? (isRecord(entry.annotations) ? entry.annotations.readOnlyHint : undefined);
	if (typeof readOnly === 'boolean') return readOnly ? 'read' : 'write';
	return undefined;
}

function toListing(item: unknown): ToolListing | undefined {
	if (typeof item === 'string') return item.length > 0 ? { name: item } : undefined;
	if (!isRecord(item)) return undefined;
	// OpenAI-style `{ type: 'function', function: { name, parameters } }`.
	const raw = isRecord(item.function) ? { ...item, ...item.function } : item;
	const name = raw.name ?? raw.tool ?? raw.id;
	if (typeof name !== 'string' || name.length === 0) return undefined;
	const listing: ToolListing = { name };
	if (typeof raw.description === 'string') listing.description = raw.description;
	const inputSchema = schemaOf(raw);
	if (inputSchema) listing.inputSchema = inputSchema;
	const access = accessOf(raw);
	if (access) listing.access = access;
	return listing;
}

/**
 * Reads GET /api/v1/tools whatever its layout (the spec does not show it): entries without a
 * name are skipped, a repeated name keeps its first entry.
 */
export function parseToolListing(body: unknown): ToolListing[] {
	const byName = new Map<string, ToolListing>();
	for (const raw of findEntries(body)) {
		const listing = toListing(raw);
		if (listing && !byName.has(listing.name)) byName.set(listing.name, listing);
	}
	return [...byName.values()];
}

/** Whether a JSON Schema declares a top-level property (e.g. `idempotencyKey`). */
export function schemaHasProperty(schema: Record<string, unknown> | undefined, name: string): boolean {
	const properties = schema?.properties;
	return isRecord(properties) && name in properties;
}
