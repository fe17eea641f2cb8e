import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { getAccount } from './account/get';
import { reserveAgentSends } from './agent/sendLimit';
import { failedToolCall, runsAsToolCall } from './agent/toolFailure';
import { forEachItem } from './itemLoop';
import { ACCOUNT_GET, CALL_ANOTHER_TOOL, SEND_AND_WAIT, toolOfOperation } from './operations';
import type { NodeResource } from './resources';
import { createRunContext, runsAsAgentTool } from './runContext';
import { executeSendAndWait } from './sendAndWait/execute';
import { executeTool } from './tool/execute';
import { assertToolAvailable } from './tool/toolAccess';
import { executeWebhook } from './webhook/execute';

/** Every operation of the node: Account › Get, the webhook endpoints, Send and Wait, and every tool. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	if (!runsAsToolCall(this)) return await route.call(this);
	return await route.call(this).catch(failedToolCall);
}

async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as NodeResource;
	const operation = this.getNodeParameter('operation', 0) as string;
	const run = await createRunContext.call(this);
	if (resource === 'webhook') return [await executeWebhook(this, run, operation)];
	if (resource === 'account' && operation === ACCOUNT_GET.value)
		return [await getAccount(this, run)];
	if (resource === 'message' && operation === SEND_AND_WAIT.value)
		return [await executeSendAndWait(this, run)];
	const tool = toolOfOperation(
		resource,
		operation,
		() => this.getNodeParameter('toolName', 0, '') as string,
	);
	if (!tool) {
		const what =
			operation === CALL_ANOTHER_TOOL.value
				? 'Choose the tool to call in Tool Name or ID'
				: `The operation "${operation}" is not known for this resource; choose one from the list`;
		throw new NodeOperationError(this.getNode(), what);
	}
	const refusal = await assertToolAvailable(this, run, tool).then(
		() => undefined,
		(error: unknown) => error,
	);
	// Refused for the key, so for every item alike (each its own error under Continue On Fail).
	if (refusal) return [await forEachItem(this, async () => await Promise.reject(refusal))];
	if (runsAsAgentTool(this)) reserveAgentSends(this, tool, this.getInputData().length);
	return [await executeTool(this, run, tool)];
}
