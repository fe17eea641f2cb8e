import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { BatchSpec } from '../../../shared/catalogue/types';
import type { ValidationIssue } from '../../../shared/catalogue/validate';
import { coerceToSchema } from '../../helpers/coerce';
import { isRecord } from '../../../shared/guards';
import { asSchema, unwrap, type JsonSchema } from '../../helpers/jsonSchema';
import { failedItem, pairedWith } from '../itemLoop';
import type { RunContext } from '../runContext';
import { guardedCall } from './guardedCall';
import { batchParameterName } from './fields/curatedFields';
import { ItemParameters } from './itemParameters';
import { readFields } from './toolInput';
import { assertValidInput, inputIssues, invalidInput, type ToolSchema } from './toolSchema';

/*
 * One element per input item (a recipient, a number, a participant), sent in as few calls as the
 * per-call limit allows. Items that share the other fields (the same campaign, the same group) go
 * together; a repeated element is sent once. Every item is checked before the first call.
 */

interface Entry {
	itemIndex: number;
	shared: Record<string, unknown>;
	element: unknown;
}

interface Batch {
	shared: Record<string, unknown>;
	elements: unknown[];
	itemIndexes: number[];
	duplicates: number;
}

/** Where one element comes from: a node parameter per property, or one for a plain value. */
interface ElementPart {
	parameter: string;
	schema: JsonSchema;
	path: string;
	/** The element's property; absent when the element is the value itself. */
	property?: string;
}

/** Worked out once per run: the element schema does not change from item to item. */
function elementParts(tool: ToolSchema, spec: BatchSpec): ElementPart[] {
	const schema = unwrap(asSchema(unwrap(tool.schema?.properties?.[spec.field] ?? {}).items));
	if (!schema.properties) return [{ parameter: batchParameterName(), schema, path: 'value' }];
	return Object.entries(schema.properties).map(([property, raw]) => ({
		parameter: batchParameterName(property),
		schema: asSchema(raw),
		path: property,
		property,
	}));
}

function readElement(parameters: ItemParameters, itemIndex: number, tool: ToolSchema, parts: readonly ElementPart[]): unknown {
	const issues: ValidationIssue[] = [];
	const fields: Record<string, unknown> = {};
	let element: unknown = fields;
	for (const part of parts) {
		const coerced = coerceToSchema(parameters.get(part.parameter, itemIndex, undefined), part.schema);
		if ('issue' in coerced) issues.push({ path: part.path, message: coerced.issue });
		const value = 'value' in coerced ? coerced.value : undefined;
		if (part.property === undefined) element = value;
		else if (value !== undefined) fields[part.property] = value;
	}
	if (issues.length > 0) throw invalidInput(tool, issues);
	return element;
}

/** What every item reads: its parameters, and the shared fields once they prove the same for every item. */
interface ItemReading {
	parameters: ItemParameters;
	parts: readonly ElementPart[];
	sharedByAll?: Record<string, unknown>;
}

function readShared(reading: ItemReading, itemIndex: number, tool: ToolSchema, spec: BatchSpec): Record<string, unknown> {
	if (reading.sharedByAll) return reading.sharedByAll;
	const { value, same } = reading.parameters.sameForEveryItem(() => readFields(reading.parameters.view(), itemIndex, tool, [spec.field]));
	if (same) reading.sharedByAll = value;
	return value;
}

/** Checks one item's element as if sent alone, naming it by item: `recipients[3].phoneNumber`. */
function readEntry(reading: ItemReading, itemIndex: number, tool: ToolSchema, spec: BatchSpec): Entry {
	const shared = readShared(reading, itemIndex, tool, spec);
	const element = readElement(reading.parameters, itemIndex, tool, reading.parts);
	const own = `${spec.field}[0]`;
	const issues = inputIssues(tool, { ...shared, [spec.field]: [element] }, 'batch-validation').map((issue) => ({
		...issue,
		path: issue.path.startsWith(own) ? `${spec.field}[${itemIndex}]${issue.path.slice(own.length)}` : issue.path,
	}));
	if (issues.length > 0) throw invalidInput(tool, issues);
	return { itemIndex, shared, element };
}

function dedupeKey(element: unknown, spec: BatchSpec): string {
	const value = spec.dedupeBy && isRecord(element) ? element[spec.dedupeBy] : element;
	return typeof value === 'string' ? value.trim() : JSON.stringify(value);
}

/** Groups entries by their shared fields, drops repeated elements, and cuts at the call limit. */
export function planBatches(entries: Entry[], spec: BatchSpec): Batch[] {
	const groups = new Map<string, Entry[]>();
	for (const entry of entries) {
		const key = JSON.stringify(entry.shared);
		const group = groups.get(key);
		if (group) group.push(entry);
		else groups.set(key, [entry]);
	}
	const batches: Batch[] = [];
	for (const group of groups.values()) {
		const seen = new Map<string, Batch>();
		let current: Batch | undefined;
		for (const entry of group) {
			const key = dedupeKey(entry.element, spec);
			const earlier = seen.get(key);
			if (earlier) {
				earlier.itemIndexes.push(entry.itemIndex);
				earlier.duplicates += 1;
				continue;
			}
			if (!current || current.elements.length >= spec.max) {
				current = { shared: entry.shared, elements: [], itemIndexes: [], duplicates: 0 };
				batches.push(current);
			}
			current.elements.push(entry.element);
			current.itemIndexes.push(entry.itemIndex);
			seen.set(key, current);
		}
	}
	return batches;
}

/**
 * Batches in flight at once. The pacer keeps them within the key's limit either way; a few in
 * parallel keep the first window's burst, and so the calls after its boundary, short.
 */
const IN_FLIGHT = 4;

async function sendBatch(context: IExecuteFunctions, run: RunContext, tool: ToolSchema, batch: Batch, index: number): Promise<INodeExecutionData> {
	const spec = tool.definition?.batch as BatchSpec;
	const first = batch.itemIndexes[0];
	const batchInfo = { index, size: batch.elements.length, items: batch.itemIndexes.length, duplicates_removed: batch.duplicates };
	try {
		const idempotencyKey = run.keys.choose(context, first, index);
		// Every element was checked with its item; what is left to check is the batch's own key.
		assertValidInput(tool, { ...batch.shared, [spec.field]: batch.elements.slice(0, 1) }, idempotencyKey);
		const input = { ...batch.shared, [spec.field]: batch.elements };
		const { data } = await guardedCall(run, { tool, input, idempotencyKey });
		return { json: { ...data, batch: batchInfo }, pairedItem: pairedWith(batch.itemIndexes) };
	} catch (error) {
		return failedItem(context, error, first, { pairedItem: pairedWith(batch.itemIndexes), extra: { batch: batchInfo } });
	}
}

/**
 * Sends every batch, up to IN_FLIGHT at a time, and answers in batch order. Once one fails the
 * run, no further batch starts (those already in flight finish) and the earliest failure is thrown.
 */
export async function sendInOrder<T>(batches: readonly Batch[], send: (batch: Batch, index: number) => Promise<T>): Promise<T[]> {
	const results: T[] = [];
	const failures: Array<{ index: number; error: unknown }> = [];
	let next = 0;
	const worker = async () => {
		while (failures.length === 0 && next < batches.length) {
			const index = next++;
			try {
				results[index] = await send(batches[index], index);
			} catch (error) {
				failures.push({ index, error });
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, batches.length) }, worker));
	if (failures.length > 0) throw failures.reduce((earliest, failure) => (failure.index < earliest.index ? failure : earliest)).error;
	return results;
}

export async function executeBatches(context: IExecuteFunctions, run: RunContext, tool: ToolSchema): Promise<INodeExecutionData[]> {
	const spec = tool.definition?.batch as BatchSpec;
	const output: INodeExecutionData[] = [];
	const entries: Entry[] = [];
	const reading: ItemReading = { parameters: new ItemParameters(context), parts: elementParts(tool, spec) };
	const itemCount = context.getInputData().length;
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			entries.push(readEntry(reading, itemIndex, tool, spec));
		} catch (error) {
			output.push(failedItem(context, error, itemIndex));
		}
	}
	const batches = planBatches(entries, spec);
	output.push(...(await sendInOrder(batches, async (batch, index) => await sendBatch(context, run, tool, batch, index))));
	return output;
}
