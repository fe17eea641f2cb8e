import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { modelParameterNames } from '../agent/fromAi';
import { forEachItem } from '../itemLoop';
import { runsAsAgentTool, type RunContext } from '../runContext';
import { downloadAttachment } from './attachment';
import { executeBatches } from './batching';
import { guardedCall } from './guardedCall';
import { executeCsvAnalysis } from './csvAnalysis';
import { listAll } from './pagination';
import { simplify } from './simplify';
import { inputModeOf, readToolInput } from './toolInput';
import { assertValidInput, toolSchema } from './toolSchema';
import { alreadySent, planWindowedSend, windowedSendOutput } from '../businessWindow/windowedSend';

/** Runs the chosen tool for the input items, in the way its input mode and kind call for. */
export async function executeTool(
	context: IExecuteFunctions,
	run: RunContext,
	name: string,
): Promise<INodeExecutionData[]> {
	const agent = runsAsAgentTool(context);
	const known = await toolSchema(run, name);
	// A model knows fields only by the parameters it filled: errors name those.
	const tool = agent
		? { ...known, modelNames: modelParameterNames(context.getNode().parameters) }
		: known;
	const mode = inputModeOf(context, tool);
	if (mode === 'batch' && tool.definition?.batch) return await executeBatches(context, run, tool);
	const declared = tool.definition;
	if (declared?.csvAnalysis && mode !== 'json' && mode !== 'mapper')
		return await executeCsvAnalysis(context, run, tool, mode);
	if (declared?.paging) {
		return await forEachItem(
			context,
			async (itemIndex) => await listAll(context, run, tool, mode, itemIndex),
		);
	}
	return await forEachItem(context, async (itemIndex) => {
		const input = readToolInput(context, itemIndex, tool, mode);
		const idempotencyKey =
			tool.access === 'read'
				? undefined
				: agent
					? run.keys.forAgentCall(context, itemIndex, name, input)
					: run.keys.choose(context, itemIndex);
		assertValidInput(tool, input, idempotencyKey);
		const plan = declared?.freeTextWindow
			? await planWindowedSend(context, run, input, { itemIndex, agent })
			: undefined;
		const window = plan ? windowedSendOutput(plan, agent) : {};
		if (plan?.kind === 'skip') return [{ json: window, pairedItem: { item: itemIndex } }];
		// The template instead keeps the item's key: a rerun sends the text or the template, once.
		if (plan?.kind === 'template') assertValidInput(tool, plan.input, idempotencyKey);
		const call = { tool, input: plan?.input ?? input, idempotencyKey };
		const { data } = await guardedCall(run, call).catch((error: unknown) => {
			throw plan ? alreadySent(context, error, { plan, itemIndex, idempotencyKey }) : error;
		});
		// A model pays for every token it reads: its answers are always compact, unless Simplify is turned off.
		const shouldSimplify = declared?.simplify
			? (context.getNodeParameter('simplify', itemIndex, true) as boolean)
			: agent;
		const item: INodeExecutionData = {
			json: { ...(shouldSimplify ? simplify(data) : (data as IDataObject)), ...window },
			pairedItem: { item: itemIndex },
		};
		return [
			declared?.downloadsLink
				? await downloadAttachment(context, item, itemIndex, run.timeoutMs)
				: item,
		];
	});
}
