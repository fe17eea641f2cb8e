import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { modelParameterNames } from '../agent/fromAi';
import { forEachItem } from '../itemLoop';
import { runsAsAgentTool, type RunContext } from '../runContext';
import { ATTACHMENT_TOOL, CSV_TOOL, LARGE_RESPONSE_TOOLS, PAGINATED_TOOLS } from '../toolGroups';
import { downloadAttachment } from './attachment';
import { executeBatches } from './batching';
import { callTool } from './callTool';
import { executeCsvAnalysis } from './csvAnalysis';
import { listAll } from './pagination';
import { simplify } from './simplify';
import { inputModeOf, readToolInput } from './toolInput';
import { assertValidInput, toolSchema } from './toolSchema';

/** Runs the chosen tool for the input items, in the way its input mode and kind call for. */
export async function executeTool(context: IExecuteFunctions, run: RunContext, name: string): Promise<INodeExecutionData[]> {
	const agent = runsAsAgentTool(context);
	const known = await toolSchema(run, name);
	// A model knows fields only by the parameters it filled: errors name those.
	const tool = agent ? { ...known, modelNames: modelParameterNames(context.getNode().parameters) } : known;
	const mode = inputModeOf(context, tool);
	if (mode === 'batch' && tool.definition?.batch) return await executeBatches(context, run, tool);
	if (name === CSV_TOOL && mode !== 'json' && mode !== 'mapper') return await executeCsvAnalysis(context, run, tool, mode);
	if (PAGINATED_TOOLS.includes(name)) {
		return await forEachItem(context, async (itemIndex) => await listAll(context, run, tool, mode, itemIndex));
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
		const { data } = await callTool(run, { tool, input, idempotencyKey });
		// A model pays for every token it reads: its answers are always compact, unless Simplify is turned off.
		const shouldSimplify = LARGE_RESPONSE_TOOLS.includes(name)
			? (context.getNodeParameter('simplify', itemIndex, true) as boolean)
			: agent;
		const item: INodeExecutionData = {
			json: shouldSimplify ? simplify(data) : (data as IDataObject),
			pairedItem: { item: itemIndex },
		};
		return [name === ATTACHMENT_TOOL ? await downloadAttachment(context, item, itemIndex, run.timeoutMs) : item];
	});
}
