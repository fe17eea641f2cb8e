import type {
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
} from 'n8n-workflow';

import { MessagingAutomationApi } from '../../credentials/MessagingAutomationApi.credentials';
// The .js suffix makes tsx pick the .ts source over the MessagingAutomation.node.json codex next to it.
import { MessagingAutomation } from '../../nodes/MessagingAutomation/MessagingAutomation.node.js';
import { findTool } from '../../nodes/shared/catalogue';
import { N8nEngine, START_NODE_TYPE } from '../support/n8nEngine';
import type { SandboxProcess } from './sandboxProcess';

/*
 * The action node as a workflow runs it: Start -> Messaging Automation in n8n's WorkflowExecute
 * (test/support/n8nEngine), its requests going through httpRequestWithAuthentication to the
 * sandbox process. Rows 2 and 3 time exactly this, so nothing here is on the measured path
 * except what n8n itself would do.
 */

const NODE_NAME = 'Messaging';
/** The type name n8n registers the node under, without the package prefix (as the engine harness does). */
const NODE_TYPE = 'messagingAutomation';

export interface NodeRunResult {
	output: INodeExecutionData[];
	/** The node's or the workflow's error, if the run stopped. */
	error?: string;
	wallMs: number;
}

/** The node's parameters for calling catalogue tool `tool`, as the editor stores them. */
export function toolParameters(tool: string, parameters: INodeParameters): INodeParameters {
	const definition = findTool(tool);
	if (!definition) throw new Error(`${tool} is not in the catalogue`);
	return { resource: definition.resource, operation: definition.operation.value, ...parameters };
}

/**
 * Options that let one execution use the whole per-key write budget on a sandbox whose clock
 * runs `speed` times faster: the same counts, in a window `speed` times shorter.
 */
export function rateLimitOptions(speed: number): INodeParameters {
	return {
		rateLimitBudget: { budget: { write: 120, read: 600, qrSend: 5, windowSeconds: 60 / speed } },
	};
}

/** The action node, calling `before` (when given) each time just before it executes. */
function actionNode(before?: () => Promise<void>): INodeType {
	const node = new MessagingAutomation();
	if (!before) return node;
	// n8n calls execute with its execution context as `this`, not the node.
	const execute = MessagingAutomation.prototype.execute;
	return Object.assign(Object.create(node) as INodeType, {
		async execute(this: IExecuteFunctions) {
			await before();
			return await execute.call(this);
		},
	});
}

/** The credential of the nodes the bench runs: the sandbox process's owner key. */
export const sandboxCredentials = (sandbox: SandboxProcess) => ({
	credentialTypes: [new MessagingAutomationApi()],
	credentials: {
		messagingAutomationApi: {
			apiKey: sandbox.keys.owner,
			baseUrl: sandbox.url,
			authScheme: 'bearer',
		},
	},
});

export function nodeEngine(
	sandbox: SandboxProcess,
	options: { beforeExecute?: () => Promise<void> } = {},
): N8nEngine {
	return new N8nEngine({
		nodeTypes: { [NODE_TYPE]: actionNode(options.beforeExecute) },
		...sandboxCredentials(sandbox),
	});
}

export async function runNode(
	engine: N8nEngine,
	parameters: INodeParameters,
	items: INodeExecutionData[],
): Promise<NodeRunResult> {
	const nodes: INode[] = [
		{
			id: 'start',
			name: 'Start',
			type: START_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'bench-node',
			name: NODE_NAME,
			type: NODE_TYPE,
			typeVersion: 1,
			position: [200, 0],
			parameters,
			credentials: { messagingAutomationApi: { id: 'bench', name: 'Sandbox' } },
		},
	];
	const connections = { Start: { main: [[{ node: NODE_NAME, type: 'main' as const, index: 0 }]] } };
	const start = process.hrtime.bigint();
	const run = await engine.run({ nodes, connections }, { node: 'Start', items });
	const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
	const error = run.nodeError(NODE_NAME) ?? run.error;
	return { output: run.output(NODE_NAME), error: error?.message, wallMs };
}

/**
 * One run on throw-away input before the measured one: the first run of a process loads and
 * compiles n8n's and the node's modules (seconds here), which a running n8n has long done.
 * The sandbox is reset afterwards, so the measured run starts with empty limit windows.
 */
export async function warmUp(
	engine: N8nEngine,
	sandbox: SandboxProcess,
	parameters: INodeParameters,
	items: INodeExecutionData[],
): Promise<void> {
	const result = await runNode(engine, parameters, items);
	if (result.error) throw new Error(`the warm-up run failed: ${result.error}`);
	await sandbox.reset();
}

/** Virtual milliseconds from the first to the last of `calls`, by the sandbox's own clock. */
export function spanMs(calls: readonly { at: string }[]): number {
	const times = calls.map((call) => Date.parse(call.at));
	return Math.max(...times) - Math.min(...times);
}

/** The earliest the last of `calls` writes may start after the first, under 120 writes per sliding minute. */
export function writeLimitMinimumMs(calls: number, speed: number): number {
	return (Math.floor((calls - 1) / 120) * 60_000) / speed;
}
