import type { ChatHistory } from '@n8n/ai-node-sdk';
import {
	NodeOperationError,
	type ISupplyDataFunctions,
	type JsonObject,
	type SupplyData,
} from 'n8n-workflow';

/*
 * n8n provides its AI node SDK to community packages from 2.x on, through the module paths it
 * gives every package it loads (require's, not import()'s). It is required when the memory runs,
 * not when n8n loads the package: n8n 1.x loads a package's nodes all or none, and a missing module
 * in this one would take the action node and the trigger down with it.
 */
type AiNodeSdk = typeof import('@n8n/ai-node-sdk');
/** The SDK's typings bring their own n8n-workflow version; at run time both are n8n's one copy. */
type SdkContext = Parameters<AiNodeSdk['supplyMemory']>[0];

const isMissing = (error: unknown) =>
	(error as { code?: unknown } | undefined)?.code === 'MODULE_NOT_FOUND';

function loadSdk(context: ISupplyDataFunctions): AiNodeSdk {
	try {
		return require('@n8n/ai-node-sdk') as AiNodeSdk;
	} catch (error) {
		if (!isMissing(error)) throw new NodeOperationError(context.getNode(), error as JsonObject);
		throw new NodeOperationError(context.getNode(), 'This memory needs n8n 2.x', {
			description:
				"It is built on n8n's AI node SDK, which n8n ships from 2.x on. On n8n 1.x, put the trigger's history_text (Include Conversation History) into the Agent's prompt instead.",
		});
	}
}

/** `history` as an Agent's memory of the last `windowLength` interactions, windowed as n8n's own memories are. */
export function supplyWindowedMemory(
	context: ISupplyDataFunctions,
	history: ChatHistory,
	windowLength: number,
): SupplyData {
	const sdk = loadSdk(context);
	const memory = new sdk.WindowedChatMemory(history, { windowSize: windowLength });
	return sdk.supplyMemory(context as unknown as SdkContext, memory) as unknown as SupplyData;
}
