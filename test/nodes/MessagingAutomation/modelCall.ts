import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

export const MODEL_CALL_TYPE = 'harness.modelCall';

/**
 * Stands for an AI Agent handing one call of its model to a tool: emits one item, the one n8n
 * builds for a tool call (the agent's input item merged with the model's arguments and the
 * call's id), given as the `item` parameter. Several of these in one workflow are several calls
 * of one agent run: one execution.
 */
export class ModelCall implements INodeType {
	description = {
		displayName: 'Model Call',
		name: MODEL_CALL_TYPE,
		group: ['input'],
		version: 1,
		description: 'Test stand-in for one tool call of an AI Agent',
		defaults: { name: 'Model Call' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [{ displayName: 'Item', name: 'item', type: 'json', default: '{}' }],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const item = this.getNodeParameter('item', 0) as IDataObject | string;
		return [
			[
				{
					json: typeof item === 'string' ? (JSON.parse(item) as IDataObject) : item,
					pairedItem: { item: 0 },
				},
			],
		];
	}
}
