// What "the package works in this n8n" means for the install-route tests: its node types are served,
// its credential tests OK against the sandbox, one action runs, and one signed delivery from the
// sandbox starts one successful execution of the trigger.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { CREDENTIAL_TYPE, NODE_TYPES, sandboxCredentialData } from '../../dev/stack.mjs';
import { nodeOutput, type N8nRestApi } from '../../support/n8nRestApi.mjs';
import { e2e, sandboxControl, unique, waitFor } from './context.mjs';
import { actionWorkflow, triggerWorkflow } from './workflows.mjs';

interface Endpoint {
	id: string;
	url: string;
	status: string;
}

/** The node types n8n serves for our package (empty when it did not load). */
export async function loadedNodeTypes(api: N8nRestApi): Promise<string[]> {
	const loaded: string[] = [];
	for (const name of Object.values(NODE_TYPES)) {
		const [description] = (await api
			.request('POST', '/node-types', { nodeInfos: [{ name, version: 1 }] })
			.catch(() => [])) as Array<{ name?: string }>;
		if (description?.name && name.endsWith(`.${description.name}`)) loaded.push(name);
	}
	return loaded;
}

/** Runs the four checks against the n8n behind `api`, whose production webhooks are served at `webhookBaseUrl`. */
export async function provePackageWorks(api: N8nRestApi, webhookBaseUrl: string): Promise<void> {
	expect(await loadedNodeTypes(api)).toEqual(Object.values(NODE_TYPES));

	const data = sandboxCredentialData({ url: e2e().sandboxUrl, apiKey: e2e().keys.owner });
	const credential = await api.createCredential({
		name: unique('route'),
		type: CREDENTIAL_TYPE,
		data,
	});
	expect(await api.testCredential({ id: credential.id, type: CREDENTIAL_TYPE, data })).toEqual(
		expect.objectContaining({ status: 'OK' }),
	);

	const action = await api.createWorkflow(
		actionWorkflow(unique('route action'), credential, { resource: 'account', operation: 'get' }),
	);
	const run = await api.waitForExecution((await api.runManually(action.id, 'Start')).executionId);
	expect(run.status).toBe('success');
	expect(nodeOutput(run, 'Action')?.[0]).toEqual(
		expect.objectContaining({ account: expect.any(Object) }),
	);

	const webhookId = randomUUID();
	const webhookUrl = `${webhookBaseUrl}/webhook/${webhookId}/webhook`;
	const trigger = await api.createWorkflow(
		triggerWorkflow(unique('route trigger'), credential, webhookId, {
			registration: 'auto',
			events: ['message.received'],
		}),
	);
	await api.activateWorkflow(trigger.id);
	try {
		await waitFor('the trigger to register its endpoint', async () => {
			const { endpoints } = await sandboxControl<{ endpoints: Endpoint[] }>('GET', '/webhooks');
			return endpoints.find(
				(endpoint) => endpoint.url === webhookUrl && endpoint.status === 'active',
			);
		});
		const text = unique('route delivery');
		await sandboxControl('POST', '/inject/message', {
			from: { phone: '447700900124', name: 'Route Test' },
			text,
		});
		const [execution] = await waitFor('the signed delivery to run', async () => {
			const list = await api.listExecutions(trigger.id);
			return list.some((candidate) => candidate.status === 'success') ? list : undefined;
		});
		expect(nodeOutput(await api.getExecution(execution.id), 'Trigger')?.[0]).toEqual(
			expect.objectContaining({ text }),
		);
	} finally {
		await api.deactivateWorkflow(trigger.id);
	}
}
