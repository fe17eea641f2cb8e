import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withCredential } from '../dev/stack.mjs';
import { nodeOutput, type N8nWorkflowInput } from '../support/n8nRestApi.mjs';
import { e2e, n8nApi, sandboxControl, sandboxCredential, unique, waitFor } from './support/context.mjs';

interface SendCall {
	tool: string;
	idempotencyKey: string | null;
	input: Record<string, unknown>;
}

const example = JSON.parse(
	readFileSync(new URL('../dev/workflows/reply-bot.json', import.meta.url), 'utf8'),
) as N8nWorkflowInput & { nodes: Array<{ name: string; type: string; webhookId?: string }> };

// The reply-bot example `npm run dev` imports, run as shipped: trigger -> send_message to the sender.
describe('example reply bot in a real n8n', () => {
	it('answers an incoming message once, keyed on the event id', async () => {
		const api = await n8nApi();
		const workflow = await api.createWorkflow(withCredential(example, await sandboxCredential(api)));
		await api.activateWorkflow(workflow.id);
		try {
			const webhookUrl = `${e2e().webhookBaseUrl}/webhook/${example.nodes.find((node) => node.webhookId)?.webhookId}/webhook`;
			await waitFor('the reply bot to register its endpoint', async () => {
				const { endpoints } = await sandboxControl<{ endpoints: Array<{ url: string; status: string }> }>('GET', '/webhooks');
				return endpoints.find((endpoint) => endpoint.url === webhookUrl && endpoint.status === 'active');
			});

			const text = unique('when do you open');
			await sandboxControl('POST', '/inject/message', { from: { phone: '5511987654321', name: 'Carol Example' }, text });
			const [execution] = await waitFor('the reply bot to run', async () => {
				const list = await api.listExecutions(workflow.id);
				return list.some((e) => e.status === 'success') ? list : undefined;
			});
			const full = await api.getExecution(execution.id);
			const [event] = nodeOutput(full, 'On Incoming Message') ?? [];
			const [reply] = nodeOutput(full, 'Reply to Sender') ?? [];
			expect(event.text).toBe(text);
			expect(reply).toEqual(expect.objectContaining({ status: 'accepted', conversation_id: event.conversation_id }));

			const { calls } = await sandboxControl<{ calls: SendCall[] }>('GET', '/calls');
			const replies = calls.filter((call) => call.tool === 'send_message' && call.idempotencyKey?.startsWith(`${event.event_id}:`));
			expect(replies).toHaveLength(1);
			expect(replies[0].input).toEqual(expect.objectContaining({ conversationId: event.conversation_id }));
			expect(String(replies[0].input.text)).toContain(text);

			if (e2e().mode === 'queue') {
				// The delivery reached the webhook process (the URL above) and the worker ran the execution.
				expect(readFileSync(e2e().workerLog ?? '', 'utf8')).toContain(`Worker started execution ${execution.id} (job`);
			}
		} finally {
			await api.deactivateWorkflow(workflow.id);
		}
	});
});
