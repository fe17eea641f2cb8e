import { randomUUID } from 'node:crypto';
import { NODE_TYPES, withCredential } from '../../dev/stack.mjs';
import type { N8nWorkflowInput } from '../../support/n8nRestApi.mjs';

type Credential = { id: string; name: string };

const link = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });

/** Manual trigger "Start" -> one action node "Action" with the given parameters. */
export function actionWorkflow(
	name: string,
	credential: Credential,
	parameters: Record<string, unknown>,
): N8nWorkflowInput {
	return withCredential(
		{
			name,
			nodes: [
				{
					id: randomUUID(),
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: randomUUID(),
					name: 'Action',
					type: NODE_TYPES.action,
					typeVersion: 1,
					position: [240, 0],
					parameters,
				},
			],
			connections: { Start: link('Action') },
			settings: { executionOrder: 'v1' },
		},
		credential,
	);
}

/** The trigger alone, as node "Trigger", listening at `/webhook/<webhookId>/webhook`. */
export function triggerWorkflow(
	name: string,
	credential: Credential,
	webhookId: string,
	parameters: Record<string, unknown>,
): N8nWorkflowInput {
	return withCredential(
		{
			name,
			nodes: [
				{
					id: randomUUID(),
					name: 'Trigger',
					type: NODE_TYPES.trigger,
					typeVersion: 1,
					position: [0, 0],
					webhookId,
					parameters,
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		},
		credential,
	);
}

/** One node of a workflow with a fresh id: what the editor would save for it. */
export function workflowNode(
	name: string,
	type: string,
	typeVersion: number,
	position: [number, number],
	parameters: Record<string, unknown>,
) {
	return { id: randomUUID(), name, type, typeVersion, position, parameters };
}
