import { type IExecuteFunctions, type INodeExecutionData, NodeOperationError } from 'n8n-workflow';

import type { BatchSpec } from '../../../shared/catalogue/types';
import type { ValidationIssue } from '../../../shared/catalogue/validate';
import { coerceToSchema } from '../../helpers/coerce';
import { asSchema, unwrap, type JsonSchema } from '../../helpers/jsonSchema';
import { failedItem, pairedWith } from '../itemLoop';
import type { RunContext } from '../runContext';
import { BatchPlan, type Batch } from './batchPlan';
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

function readElement(
	parameters: ItemParameters,
	itemIndex: number,
	tool: ToolSchema,
	parts: readonly ElementPart[],
): unknown {
	const issues: ValidationIssue[] = [];
	const fields: Record<string, unknown> = {};
	let element: unknown = fields;
	for (const part of parts) {
		const coerced = coerceToSchema(
			parameters.get(part.parameter, itemIndex, undefined),
			part.schema,
		);
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

function readShared(
	reading: ItemReading,
	itemIndex: number,
	tool: ToolSchema,
	spec: BatchSpec,
): Record<string, unknown> {
	if (reading.sharedByAll) return reading.sharedByAll;
	const { value, same } = reading.parameters.sameForEveryItem(() =>
		readFields(reading.parameters.view(), itemIndex, tool, [spec.field]),
	);
	if (same) reading.sharedByAll = value;
	return value;
}

/** Stands in for the batch's idempotency key while an item is checked; the real key is checked per batch. */
const BATCH_CHECK_KEY = 'batch-validation';

/** Checks one item's element as if sent alone, naming it by item: `recipients[3].phoneNumber`. */
function readEntry(
	reading: ItemReading,
	itemIndex: number,
	tool: ToolSchema,
	spec: BatchSpec,
): { shared: Record<string, unknown>; element: unknown } {
	const shared = readShared(reading, itemIndex, tool, spec);
	const element = readElement(reading.parameters, itemIndex, tool, reading.parts);
	const own = `${spec.field}[0]`;
	// Built with Object.assign and with the placeholder key already in, so inputIssues need not copy
	// it: on Node 20, zod checking objects built by spread got much of each check's garbage promoted
	// to the old generation, raising bench row 3's peak memory by about 20 MB per 100,000 items.
	// (shared holds schema fields only, so no `__proto__` key can meet Object.assign's setter.)
	const alone: Record<string, unknown> = Object.assign({}, shared, { [spec.field]: [element] });
	if (tool.schema?.properties?.idempotencyKey !== undefined && alone.idempotencyKey === undefined)
		alone.idempotencyKey = BATCH_CHECK_KEY;
	const issues = inputIssues(tool, alone, BATCH_CHECK_KEY).map((issue) => ({
		...issue,
		path: issue.path.startsWith(own)
			? `${spec.field}[${itemIndex}]${issue.path.slice(own.length)}`
			: issue.path,
	}));
	if (issues.length > 0) throw invalidInput(tool, issues);
	return { shared, element };
}

/**
 * Batches in flight at once. The pacer keeps them within the key's limit either way; a few in
 * parallel keep the first window's burst, and so the calls after its boundary, short.
 */
const IN_FLIGHT = 4;

/** The batch's elements: as kept by the plan, or read again from their items (already checked). */
function elementsOf(
	context: IExecuteFunctions,
	reading: ItemReading,
	tool: ToolSchema,
	batch: Batch,
): unknown[] {
	if (batch.elements) return batch.elements;
	return batch.items.map((itemIndex) => {
		try {
			return readElement(reading.parameters, itemIndex, tool, reading.parts);
		} catch (error) {
			// Plain references and fixed values read alike twice; should one not, say so plainly.
			const reason = error instanceof Error ? error.message : String(error);
			throw new NodeOperationError(
				context.getNode(),
				`Item ${itemIndex} read differently when its batch was sent than when it was checked: ${reason}`,
				{ itemIndex },
			);
		}
	});
}

/** Every item a batch answers for, in input order: those it carries and their repeats. */
function itemsAnswered(batch: Batch): number[] {
	return [...batch.items, ...batch.duplicateItems].sort((a, b) => a - b);
}

async function sendBatch(
	context: IExecuteFunctions,
	run: RunContext,
	reading: ItemReading,
	tool: ToolSchema,
	batch: Batch,
	index: number,
): Promise<INodeExecutionData> {
	const spec = tool.definition?.batch as BatchSpec;
	const first = batch.items[0];
	const paired = () => pairedWith(itemsAnswered(batch));
	const batchInfo = {
		index,
		size: batch.items.length,
		items: batch.items.length + batch.duplicateItems.length,
		duplicates_removed: batch.duplicateItems.length,
	};
	try {
		const idempotencyKey = run.keys.choose(context, first, index);
		const elements = elementsOf(context, reading, tool, batch);
		// Every element was checked with its item; what is left to check is the batch's own key.
		assertValidInput(tool, { ...batch.shared, [spec.field]: elements.slice(0, 1) }, idempotencyKey);
		const input = { ...batch.shared, [spec.field]: elements };
		const { data } = await guardedCall(run, { tool, input, idempotencyKey });
		return { json: { ...data, batch: batchInfo }, pairedItem: paired() };
	} catch (error) {
		return failedItem(context, error, first, { pairedItem: paired(), extra: { batch: batchInfo } });
	}
}

/**
 * Sends every batch, up to IN_FLIGHT at a time, and answers in batch order. Once one fails the
 * run, no further batch starts (those already in flight finish) and the earliest failure is thrown.
 */
export async function sendInOrder<B, T>(
	batches: readonly B[],
	send: (batch: B, index: number) => Promise<T>,
): Promise<T[]> {
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
	if (failures.length > 0)
		throw failures.reduce((earliest, failure) =>
			failure.index < earliest.index ? failure : earliest,
		).error;
	return results;
}

export async function executeBatches(
	context: IExecuteFunctions,
	run: RunContext,
	tool: ToolSchema,
): Promise<INodeExecutionData[]> {
	const spec = tool.definition?.batch as BatchSpec;
	const output: INodeExecutionData[] = [];
	const parameters = new ItemParameters(context);
	const reading: ItemReading = { parameters, parts: elementParts(tool, spec) };
	const plan = new BatchPlan(
		spec,
		!parameters.readsAgainAlike(reading.parts.map((part) => part.parameter)),
	);
	const itemCount = context.getInputData().length;
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			const { shared, element } = readEntry(reading, itemIndex, tool, spec);
			plan.add(itemIndex, shared, element);
		} catch (error) {
			output.push(failedItem(context, error, itemIndex));
		}
	}
	output.push(
		...(await sendInOrder(
			plan.batches(),
			async (batch, index) => await sendBatch(context, run, reading, tool, batch, index),
		)),
	);
	return output;
}
