import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { catalogue, findTool } from '../../../shared/catalogue';

/*
 * A runaway guard for AI agents: a model that loops on "send" must not flood a chat or get the
 * number blocked. Each execution may send at most a set number of messages through the node as a
 * tool; further calls send nothing and tell the model why. Every tool call of one execution runs
 * in the process that runs the execution, so the count lives there, keyed by execution.
 */

export const DEFAULT_SEND_LIMIT = 10;
/** Executions remembered at once; the oldest go first (an execution is long over by then). */
const MAX_EXECUTIONS = 10_000;

const sentByExecution = new Map<string, number>();

/** The operations whose calls put a message into a chat (send, forward, edit, delete: the spec's counted sends). */
const SENDING_OPERATIONS = catalogue.filter((tool) => tool.countsAsSend);

const FIELD = {
	displayName: 'Message Limit per Execution',
	name: 'agentSendLimit',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: DEFAULT_SEND_LIMIT,
	description:
		'The most messages the AI Agent may send through this tool in one execution. Further calls send nothing and tell the model why, so an agent that loops cannot flood a chat. 0 turns the limit off.',
} as const;

/** Shown on the sending operations when the node is an AI Agent's tool; one copy per resource. */
export const sendLimitProperties: INodeProperties[] = [...new Set(SENDING_OPERATIONS.map((tool) => tool.resource))].map((resource) => ({
	...FIELD,
	displayOptions: {
		show: {
			'@tool': [true],
			resource: [resource],
			operation: SENDING_OPERATIONS.filter((tool) => tool.resource === resource).map((tool) => tool.operation.value),
		},
	},
}));

function limitOf(context: IExecuteFunctions): number {
	const value = Number(context.getNodeParameter('agentSendLimit', 0, DEFAULT_SEND_LIMIT));
	return Number.isFinite(value) && value >= 0 ? Math.floor(value) : DEFAULT_SEND_LIMIT;
}

function remember(execution: string, count: number): void {
	sentByExecution.delete(execution);
	sentByExecution.set(execution, count);
	for (const oldest of sentByExecution.keys()) {
		if (sentByExecution.size <= MAX_EXECUTIONS) break;
		sentByExecution.delete(oldest);
	}
}

/**
 * Takes `count` sends of this execution's allowance, before anything is awaited (an agent may call
 * the tool several times at once), or refuses with a message for the model. A call counts once
 * made, whatever its outcome: a model that keeps sending invalid input is a loop too.
 */
export function reserveAgentSends(context: IExecuteFunctions, tool: string, count: number): void {
	if (!findTool(tool)?.countsAsSend) return;
	const limit = limitOf(context);
	if (limit === 0) return;
	const execution = context.getExecutionId() ?? '';
	const used = sentByExecution.get(execution) ?? 0;
	if (used + count > limit) {
		throw new NodeOperationError(
			context.getNode(),
			`Not sent: this execution has already made ${used} send call${used === 1 ? '' : 's'} through this tool, and its Message Limit per Execution is ${limit}. Do not call this tool again in this execution; finish without sending more messages.`,
		);
	}
	remember(execution, used + count);
}
