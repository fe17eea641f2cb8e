/**
 * Stands in for n8n's AI Agent, which is not installed here: a root node with a Memory input that
 * uses the connected memory the way the Agent does (load before the model call, save after), and
 * outputs the chat history it was given. The memory node runs in n8n-core's own sub-node
 * machinery (`getInputConnectionData`), wrapped as n8n wraps every memory.
 */
import type { BaseMessage } from '@langchain/core/messages';
import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

export const AGENT_TYPE = 'harness.agent';

interface AgentMemory {
	loadMemoryVariables(values: Record<string, unknown>): Promise<{ chat_history: BaseMessage[] }>;
	saveContext(input: Record<string, unknown>, output: Record<string, unknown>): Promise<void>;
}

export interface RememberedMessage {
	role: string;
	text: string;
}

export class AgentStandIn implements INodeType {
	description = {
		displayName: 'Agent',
		name: AGENT_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Test stand-in for the AI Agent',
		defaults: { name: 'Agent' },
		inputs: [
			NodeConnectionTypes.Main,
			{ type: NodeConnectionTypes.AiMemory, maxConnections: 1, required: false },
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	} as unknown as INodeTypeDescription;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const output: INodeExecutionData[] = [];
		for (let index = 0; index < items.length; index++) {
			const memory = (await this.getInputConnectionData(
				NodeConnectionTypes.AiMemory,
				index,
			)) as AgentMemory;
			const input = String(items[index].json.text ?? '');
			const { chat_history: history } = await memory.loadMemoryVariables({ input });
			await memory.saveContext({ input }, { output: `answer to ${input}` });
			const remembered: RememberedMessage[] = history.map((message) => ({
				role: message.getType(),
				text: message.text,
			}));
			output.push({ json: { remembered: remembered as never }, pairedItem: { item: index } });
		}
		return [output];
	}
}
