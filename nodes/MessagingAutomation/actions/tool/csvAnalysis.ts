import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { CsvAnalysisSpec } from '../../../shared/catalogue/types';
import { InputValidationError } from '../../../shared/client/errors';
import { coerceToSchema, scalarText } from '../../helpers/coerce';
import { csvLine, csvValues, splitCsv, type CsvPart } from '../../helpers/csv';
import { failedItem, forEachItem, pairedWith } from '../itemLoop';
import type { RunContext } from '../runContext';
import { guardedCall } from './guardedCall';
import type { InputMode } from './fields/curatedFields';
import { mergeFindings } from './mergeFindings';
import { simplify } from './simplify';
import { readFields } from './toolInput';
import { assertValidInput, type ToolSchema } from './toolSchema';

/*
 * A tool that declares csvAnalysis (analyze_campaign_csv) checks a bounded number of rows and
 * characters per call. Larger lists are cut at record boundaries, every part keeps the header, and
 * the findings come back as one answer whose row numbers count from the start of the whole list.
 */

const DEFAULT_MAX_CHARS = 500_000;
const LIST_SCHEMA = { type: 'array', items: { type: 'string' } };

/** One row per input item: phone, opt_in, param_1..param_n (n = the most any item gives). */
function csvFromItems(context: IExecuteFunctions): string {
	const rows = context.getInputData().map((_, itemIndex) => {
		const parameters = coerceToSchema(context.getNodeParameter('csvParameters', itemIndex, ''), LIST_SCHEMA);
		return [
			context.getNodeParameter('csvPhone', itemIndex, ''),
			context.getNodeParameter('csvOptIn', itemIndex, ''),
			...('value' in parameters && Array.isArray(parameters.value) ? parameters.value : []),
		];
	});
	const width = Math.max(0, ...rows.map((row) => row.length - 2));
	const header = ['phone', 'opt_in', ...Array.from({ length: width }, (_, index) => `param_${index + 1}`)];
	return [header, ...rows].map(csvLine).join('\r\n');
}

async function csvOfItem(context: IExecuteFunctions, itemIndex: number, mode: InputMode, field: string): Promise<string> {
	if (mode === 'csvBinary') {
		const property = context.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string;
		context.helpers.assertBinaryData(itemIndex, property);
		const buffer = await context.helpers.getBinaryDataBuffer(itemIndex, property);
		return buffer.toString('utf8').replace(/^\uFEFF/, '');
	}
	const text = scalarText(context.getNodeParameter(field, itemIndex, ''));
	if (text === undefined) throw new InputValidationError('The CSV must be text. Nothing was sent.', { code: 'input_validation', field });
	return text;
}

/** Phones that occur in more than one part: no single call can see those duplicates. */
function duplicatesAcrossParts(parts: CsvPart[]): IDataObject[] {
	const phoneColumn = csvValues(parts[0]?.header ?? '').findIndex((name) => name.trim().toLowerCase() === 'phone');
	if (parts.length < 2 || phoneColumn < 0) return [];
	const rowsByPhone = new Map<string, { parts: Set<number>; rows: number[] }>();
	parts.forEach((part, partIndex) => {
		part.rows.forEach((record, rowIndex) => {
			const phone = (csvValues(record)[phoneColumn] ?? '').replace(/\D/g, '').replace(/^00/, '');
			if (phone === '') return;
			const entry = rowsByPhone.get(phone) ?? { parts: new Set<number>(), rows: [] };
			entry.parts.add(partIndex);
			entry.rows.push(part.rowOffset + rowIndex + 1);
			rowsByPhone.set(phone, entry);
		});
	});
	return [...rowsByPhone.entries()]
		.filter(([, entry]) => entry.parts.size > 1)
		.map(([phone, entry]) => ({ phone, rows: entry.rows }));
}

function csvSpec(tool: ToolSchema): CsvAnalysisSpec {
	const spec = tool.definition?.csvAnalysis;
	if (!spec) throw new Error(`${tool.name} declares no CSV analysis`);
	return spec;
}

async function analyze(
	context: IExecuteFunctions,
	run: RunContext,
	tool: ToolSchema,
	csv: string,
	itemIndex: number,
): Promise<IDataObject> {
	const { field, maxRows } = csvSpec(tool);
	const options = readFields(context, itemIndex, tool, [field]);
	const maxChars = tool.schema?.properties?.[field]?.maxLength ?? DEFAULT_MAX_CHARS;
	const parts = splitCsv(csv, maxRows, maxChars);
	if (parts.length === 0) {
		throw new InputValidationError('The CSV is empty: it needs a header row (phone, opt_in) and rows below it. Nothing was sent.', {
			code: 'input_validation',
			field,
		});
	}
	const answers: Array<{ data: Record<string, unknown>; rowOffset: number }> = [];
	for (const part of parts) {
		const input = { ...options, [field]: part.text };
		assertValidInput(tool, input);
		answers.push({ data: (await guardedCall(run, { tool, input })).data, rowOffset: part.rowOffset });
	}
	const merged = answers.length === 1 ? answers[0].data : mergeFindings(answers);
	const crossPart = duplicatesAcrossParts(parts);
	const result: IDataObject = { ...(merged as IDataObject), parts: parts.length };
	if (crossPart.length > 0) result.duplicatesAcrossParts = crossPart;
	const shouldSimplify = context.getNodeParameter('simplify', itemIndex, true) as boolean;
	return shouldSimplify ? simplify(result) : result;
}

export async function executeCsvAnalysis(
	context: IExecuteFunctions,
	run: RunContext,
	tool: ToolSchema,
	mode: InputMode,
): Promise<INodeExecutionData[]> {
	if (mode === 'csvItems') {
		// The whole input is one list: one answer, paired with every item.
		const pairedItem = pairedWith(context.getInputData().map((_, index) => index));
		try {
			return [{ json: await analyze(context, run, tool, csvFromItems(context), 0), pairedItem }];
		} catch (error) {
			return [failedItem(context, error, 0, { pairedItem })];
		}
	}
	return await forEachItem(context, async (itemIndex) => [
		{ json: await analyze(context, run, tool, await csvOfItem(context, itemIndex, mode, csvSpec(tool).field), itemIndex), pairedItem: { item: itemIndex } },
	]);
}
