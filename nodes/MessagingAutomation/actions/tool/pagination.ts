import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { isRecord } from '../../../shared/guards';
import type { RunContext } from '../runContext';
import { guardedCall } from './guardedCall';
import type { InputMode } from './fields/curatedFields';
import { historyItem, wantsHistory } from './historyOutput';
import { simplify } from './simplify';
import { readToolInput } from './toolInput';
import { assertValidInput, type ToolSchema } from './toolSchema';

/*
 * Return All / Limit for the tools that declare paging. Their shapes are only known from the live
 * schema, so the cursor is found by name: the declared field, else a usual name the schema has; the
 * next cursor from the answer. Pages stop at the limit, at the last page, or when a cursor repeats.
 */

const CURSOR_INPUTS = ['cursor', 'page_token', 'pageToken', 'after', 'starting_after'];
const CURSOR_OUTPUTS = ['next_cursor', 'nextCursor', 'next_page_token', 'nextPageToken', 'next'];
const LIST_OUTPUTS = ['items', 'data', 'results'];
const PAGE_SIZE_INPUTS = ['limit', 'page_size', 'pageSize', 'per_page'];
const DEFAULT_PAGE_MAX = 100;

function firstPresent(names: string[], properties: Record<string, unknown> | undefined): string | undefined {
	return names.find((name) => properties !== undefined && name in properties);
}

/** The answer's list: a preferred name, else its only (or first) array. */
export function listOf(data: Record<string, unknown>): unknown[] {
	const named = LIST_OUTPUTS.find((name) => Array.isArray(data[name]));
	if (named) return data[named] as unknown[];
	return (Object.values(data).find((value) => Array.isArray(value)) as unknown[] | undefined) ?? [];
}

/** The next cursor, at the top level or in a `pagination`/`meta`/`page` object. */
export function nextCursorOf(data: Record<string, unknown>): string | undefined {
	if (data.has_more === false || data.hasMore === false) return undefined;
	const places = [data, data.pagination, data.meta, data.page].filter(isRecord);
	for (const place of places) {
		const name = CURSOR_OUTPUTS.find((candidate) => typeof place[candidate] === 'string' && place[candidate] !== '');
		if (name) return place[name] as string;
	}
	return undefined;
}

export async function listAll(
	context: IExecuteFunctions,
	run: RunContext,
	tool: ToolSchema,
	mode: InputMode,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const returnAll = context.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? Number.POSITIVE_INFINITY : (context.getNodeParameter('limit', itemIndex, 50) as number);
	const shouldSimplify = context.getNodeParameter('simplify', itemIndex, true) as boolean;
	const properties = tool.schema?.properties;
	const declared = tool.definition?.paging;
	const cursorField = firstPresent([...(declared ? [declared.cursor] : []), ...CURSOR_INPUTS], properties) ?? declared?.cursor ?? 'cursor';
	const sizeField = firstPresent([...(declared ? [declared.limit] : []), ...PAGE_SIZE_INPUTS], properties);
	const pageMax = (sizeField && properties?.[sizeField]?.maximum) || DEFAULT_PAGE_MAX;

	const base = readToolInput(context, itemIndex, tool, mode);
	// A page size the user set stays the page size; the node's Limit caps the total.
	const pageSize = sizeField && typeof base[sizeField] === 'number' ? Math.min(base[sizeField] as number, pageMax) : pageMax;
	const results: unknown[] = [];
	const seen = new Set<string>();
	let cursor = typeof base[cursorField] === 'string' ? (base[cursorField] as string) : undefined;
	for (;;) {
		const input: Record<string, unknown> = { ...base };
		if (cursor) input[cursorField] = cursor;
		if (sizeField) input[sizeField] = Math.min(pageSize, limit - results.length);
		assertValidInput(tool, input);
		const { data } = await guardedCall(run, { tool, input });
		const page = listOf(data);
		results.push(...page);
		cursor = nextCursorOf(data);
		if (!cursor || seen.has(cursor) || page.length === 0 || results.length >= limit) break;
		seen.add(cursor);
	}
	if (wantsHistory(context, tool, itemIndex)) return [historyItem(results.slice(0, limit), base.conversationId, itemIndex)];
	return results.slice(0, limit).map((element) => {
		const json = (isRecord(element) ? element : { value: element }) as IDataObject;
		return { json: shouldSimplify ? simplify(json) : json, pairedItem: { item: itemIndex } };
	});
}
