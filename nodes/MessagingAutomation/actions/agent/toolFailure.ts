import { NodeConnectionTypes, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

/*
 * A tool call that fails must reach the model as an answer it can act on ("Phone_Number must
 * be …; call again"). n8n 2.x does this for every tool node not set to stop the workflow; n8n 1.x
 * stops the whole workflow instead. Answering the model here gives both the same behaviour.
 */

/** Whether this run is an AI agent's tool call whose failure should go back to the model. */
export function answersModelOnFailure(context: IExecuteFunctions): boolean {
	const node = context.getNode();
	return node.rewireOutputLogTo === NodeConnectionTypes.AiTool && node.onError !== 'stopWorkflow';
}

/** The output n8n 2.x gives the model for a failed tool call: the error's message. */
export function failedToolCall(error: unknown): INodeExecutionData[][] {
	const message = error instanceof Error ? error.message : String(error);
	return [[{ json: { error: message } }]];
}
