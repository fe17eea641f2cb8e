import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { forEachItem } from '../itemLoop';
import type { RunContext } from '../runContext';

/** Operation value of Account > Get; tool names are snake_case, so it can never clash with one. */
export const GET_ME_OPERATION = 'getMe';

/** GET /api/v1/me: account, numbers and their connection, readiness, key name and scopes. */
export async function getAccount(context: IExecuteFunctions, run: RunContext): Promise<INodeExecutionData[]> {
	return await forEachItem(context, async (itemIndex) => {
		const { data } = await run.client.getMe();
		return [{ json: data as unknown as IDataObject, pairedItem: { item: itemIndex } }];
	});
}
