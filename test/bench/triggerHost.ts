import { randomUUID } from 'node:crypto';
import type { INodeParameters } from 'n8n-workflow';

import { MessagingAutomationTrigger } from '../../nodes/MessagingAutomationTrigger/MessagingAutomationTrigger.node.js';
import { N8nEngine } from '../support/n8nEngine';
import { N8nWebhookHost } from '../support/n8nWebhook';
import { sandboxCredentials } from './nodeRunner';
import type { SandboxProcess } from './sandboxProcess';

/**
 * The trigger with `parameters`, hosted in n8n-core's webhook machinery in this process with the
 * owner's key for the sandbox process, and activated for production.
 */
export async function activeBenchTrigger(
	sandbox: SandboxProcess,
	parameters: INodeParameters,
): Promise<N8nWebhookHost> {
	const engine = new N8nEngine({
		nodeTypes: { messagingAutomationTrigger: new MessagingAutomationTrigger() },
		...sandboxCredentials(sandbox),
	});
	const node = {
		id: 'trigger-1',
		name: 'Trigger',
		type: 'messagingAutomationTrigger',
		typeVersion: 1,
		position: [0, 0] as [number, number],
		webhookId: randomUUID(),
		parameters,
		credentials: { messagingAutomationApi: { id: 'cred-1', name: 'Sandbox' } },
	};
	const host = new N8nWebhookHost(engine, { nodes: [node], connections: {} }, 'Trigger');
	await host.start();
	await host.activate('production');
	return host;
}
