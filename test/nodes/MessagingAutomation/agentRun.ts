import type { IConnections, IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { START_NODE_TYPE } from '../../support/n8nEngine';
import { AGENT_TOOL_TYPE, type Harness } from './harness';
import { MODEL_CALL_TYPE } from './modelCall';

/*
 * The node as an AI Agent's tool, in n8n's engine: the `…Tool` node type with the parameters the
 * editor saves when it is added as a tool. One engine run is one agent run (one execution); in it,
 * each call of the model is one run of the tool node (the same node id) with one item, as n8n
 * builds it: the agent's input item (here the trigger's event) merged with the model's arguments
 * and the call's id.
 */

export const SEND: INodeParameters = { resource: 'message', operation: 'send', channel: 'qr' };
export const AGENT_EVENT = {
	event_id: 'evt_agent_run_1',
	event_type: 'message.received',
	text: 'Please tell Alice and Bob',
	channel: 'qr',
};
let callCounter = 0;

/** One call of the model with its arguments (the keys of the tool's parameters). */
export function modelCall(args: IDataObject, agentInput: IDataObject = AGENT_EVENT): IDataObject {
	return { ...agentInput, ...args, toolCallId: `call_${++callCounter}` };
}

/**
 * How n8n runs a tool node for its AI Agent: `rewireOutputLogTo` set (the output goes to the
 * agent), with the node's own On Error setting. Left out, the tool node runs as a plain node.
 */
export interface AsAgentTool {
	onError?: INode['onError'];
}

/** One agent run making `calls` in order, through the tool node configured with `parameters`. */
export async function agentRun(
	h: Harness,
	calls: IDataObject[],
	parameters: INodeParameters = SEND,
	asAgentTool?: AsAgentTool,
) {
	const nodes: INode[] = [
		{
			id: 'start',
			name: 'Start',
			type: START_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
	];
	const connections: IConnections = { Start: { main: [[]] } };
	calls.forEach((item, index) => {
		const position: [number, number] = [200, index * 200];
		nodes.push({
			id: `call-${index}`,
			name: `Call ${index}`,
			type: MODEL_CALL_TYPE,
			typeVersion: 1,
			position,
			parameters: { item: JSON.stringify(item) },
		});
		nodes.push({
			id: 'agent-tool-node',
			name: `Tool ${index}`,
			type: AGENT_TOOL_TYPE,
			typeVersion: 1,
			position: [400, index * 200],
			parameters,
			credentials: { messagingAutomationApi: { id: 'cred-1', name: 'Sandbox' } },
			...(asAgentTool
				? { rewireOutputLogTo: 'ai_tool' as const, onError: asAgentTool.onError }
				: {}),
		});
		connections.Start.main[0]?.push({ node: `Call ${index}`, type: 'main', index: 0 });
		connections[`Call ${index}`] = { main: [[{ node: `Tool ${index}`, type: 'main', index: 0 }]] };
	});
	const before = h.sandbox.calls().length;
	const result = await h.engine.run(
		{ nodes, connections },
		{ node: 'Start', items: [{ json: {} }] },
	);
	const tools = calls.map((_, index) => `Tool ${index}`);
	return {
		json: tools.map((name) => result.output(name, 0, asAgentTool ? 'ai_tool' : 'main')[0]?.json),
		error:
			tools.map((name) => result.nodeError(name)).find((error) => error !== undefined) ??
			result.error,
		/** Whether the run itself failed, not only a tool call in it. */
		runFailed: result.error !== undefined,
		calls: h.sandbox.calls().slice(before),
	};
}
