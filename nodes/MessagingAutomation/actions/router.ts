import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { GET_ME_OPERATION, getAccount } from './account/get';
import type { NodeResource } from './resources';
import { createRunContext } from './runContext';
import { executeTool } from './tool/execute';
import { executeWebhook } from './webhook/execute';

/** Every operation of the node: Account > Get, the webhook endpoints, and every tool. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as NodeResource;
	const operation = this.getNodeParameter('operation', 0) as string;
	if (operation === '') throw new NodeOperationError(this.getNode(), 'Choose an operation (the tool to call) first');
	const run = await createRunContext.call(this);
	if (resource === 'webhook') return [await executeWebhook(this, run, operation)];
	if (operation === GET_ME_OPERATION) return [await getAccount(this, run)];
	return [await executeTool(this, run, operation)];
}
