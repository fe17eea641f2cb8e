import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

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
			if (!context.continueOnFail()) throw toNodeError(context.getNode(), error, itemIndex);
			output.push({ json: { error: errorJson(error) }, pairedItem: { item: itemIndex } });
		}
	}
	return output;
}

/** The output of a call that covered several items: paired with all of them. */
export function pairedWith(itemIndexes: readonly number[]): INodeExecutionData['pairedItem'] {
	return itemIndexes.map((item) => ({ item }));
}
