import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { forEachItem } from '../itemLoop';
import type { RunContext } from '../runContext';

/** GET /api/v1/me: account, numbers and their connection, readiness, key name and scopes. */
export async function getAccount(
	context: IExecuteFunctions,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	return await forEachItem(context, async (itemIndex) => {
		const { data } = await run.client.getMe();
		return [{ json: data as unknown as IDataObject, pairedItem: { item: itemIndex } }];
	});
}
