import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { runsAsToolCall } from './agent/toolFailure';
import { errorJson, toNodeError } from './errors';

/**
 * Runs `handle` for every input item, in order. A failure stops the node with the item's error,
 * or under Continue On Fail becomes that item's output (`json.error`) and the next item goes on.
 */
export async function forEachItem(
	context: IExecuteFunctions,
	handle: (itemIndex: number) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	const count = context.getInputData().length;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			output.push(...(await handle(itemIndex)));
		} catch (error) {
			output.push(failedItem(context, error, itemIndex));
		}
	}
	return output;
}

/**
 * Continue On Fail, for every loop of the node: the error stops the node, named for `itemIndex`;
 * or, when the node continues on fail (not as an AI tool), it becomes an output item (`json.error`, beside `extra`)
 * paired with the items it stands for (by default the one item).
 */
export function failedItem(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
	output: { pairedItem?: INodeExecutionData['pairedItem']; extra?: IDataObject } = {},
): INodeExecutionData {
	// A tool call's failure is answered to the model in one place (router), whatever On Error says.
	if (!context.continueOnFail() || runsAsToolCall(context))
		throw toNodeError(context.getNode(), error, itemIndex);
	return {
		json: { error: errorJson(error), ...output.extra },
		pairedItem: output.pairedItem ?? { item: itemIndex },
	};
}

/** The output of a call that covered several items: paired with all of them. */
export function pairedWith(itemIndexes: readonly number[]): INodeExecutionData['pairedItem'] {
	return itemIndexes.map((item) => ({ item }));
}
