import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeOutput, type N8nRestApi, type N8nWorkflow } from '../support/n8nRestApi.mjs';
import {
	e2e,
	n8nApi,
	sandboxControl,
	sandboxCredential,
	unique,
	waitFor,
} from './support/context.mjs';
import { triggerWorkflow } from './support/workflows.mjs';

/*
 * "Listen for test event" on a trigger with Group Quick Messages, as a new user builds it (issue
 * 25): registration left to the node, the editor's button (POST /rest/workflows/:id/run from the
 * trigger), then three quick messages written in the chat. n8n serves the test URL until one of its
 * requests starts a run; the trigger starts none for the first two messages of the burst and one,
 * holding all three in written order, for the last. Asserted on what runs, not on answer times.
 */

const QUIET_S = 3;
const TEXTS = ['hi', 'is my order shipped?', 'order 4411'];

interface Endpoint {
	url: string;
	status: string;
}

// Regular mode only: the suite's queue stack registers WEBHOOK_URL, the first webhook process, and has
// nothing in front that routes /webhook-test/ to main (the only process serving test URLs), as a load
// balancer does in production.
describe.skipIf(e2e().mode === 'queue')(
	'Listen for test event with Group Quick Messages, in a real n8n',
	() => {
		let api: N8nRestApi;
		let workflow: N8nWorkflow;
		const webhookId = randomUUID();
		const isTestUrl = (url: string) => url.endsWith(`/webhook-test/${webhookId}/webhook`);
		const endpoints = async () =>
			(await sandboxControl<{ endpoints: Endpoint[] }>('GET', '/webhooks')).endpoints;

		beforeAll(async () => {
			api = await n8nApi();
			workflow = await api.createWorkflow(
				triggerWorkflow(unique('e2e test event'), await sandboxCredential(api), webhookId, {
					registration: 'auto',
					events: ['message.received'],
					groupQuickMessages: true,
					quietWindowSeconds: QUIET_S,
					longestWaitSeconds: 20,
				}),
			);
		});

		afterAll(async () => {
			// A listening test URL holds an endpoint; stopping the listener removes it.
			await api.request('DELETE', `/test-webhook/${workflow.id}`).catch(() => undefined);
		});

		it(
			'runs one test execution holding the three quick messages in order',
			{ tags: ['every-line'] },
			async () => {
				const listening = await api.request<{ waitingForWebhook?: boolean }>(
					'POST',
					`/workflows/${workflow.id}/run`,
					{
						...(e2e().n8nVersion.startsWith('1.')
							? { workflowData: await api.getWorkflow(workflow.id) }
							: {}),
						triggerToStartFrom: { name: 'Trigger' },
					},
				);
				expect(listening.waitingForWebhook).toBe(true);
				await waitFor('the test URL to be registered with the service', async () =>
					(await endpoints()).find(
						(endpoint) => isTestUrl(endpoint.url) && endpoint.status === 'active',
					),
				);

				const from = { phone: `49151${randomInt(10_000_000, 99_999_999)}`, name: 'Test Event' };
				for (const text of TEXTS)
					await sandboxControl('POST', '/inject/message', { channel: 'business', from, text });

				const [run] = await waitFor('the test execution', async () => {
					const list = await api.listExecutions(workflow.id);
					return list.some((execution) => !['running', 'new'].includes(execution.status))
						? list
						: undefined;
				});
				const execution = await api.getExecution(run.id);
				expect(execution.mode).toBe('manual');
				expect(execution.status).toBe('success');
				const [turn] = nodeOutput(execution, 'Trigger') ?? [];
				expect(turn.messages.map((message: { text: string }) => message.text)).toEqual(TEXTS);
				// One quiet window more: the first two messages started nothing, the test URL is released.
				await new Promise((resolve) => setTimeout(resolve, (QUIET_S + 2) * 1000));
				expect(await api.listExecutions(workflow.id)).toHaveLength(1);
				await waitFor('the test endpoint to be removed', async () =>
					(await endpoints()).some(
						(endpoint) => isTestUrl(endpoint.url) && endpoint.status === 'active',
					)
						? undefined
						: true,
				);
			},
		);
	},
);
