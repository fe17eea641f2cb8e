import { describe, expect, it } from 'vitest';
import { executionError, nodeOutput } from '../support/n8nRestApi.mjs';
import { n8nApi, sandboxControl, sandboxCredential, unique } from './support/context.mjs';
import { actionWorkflow } from './support/workflows.mjs';

interface RecordedCall {
	tool: string;
	idempotencyKey: string | null;
	input: Record<string, unknown>;
	status: number;
	replayed: boolean;
}

/**
 * The calls the sandbox accepted with `key`. Earlier tests may have used up the key's QR sends of this
 * minute: a 429 is refused before anything is done (the node waits and retries with the same key).
 */
async function callsWithKey(key: string): Promise<RecordedCall[]> {
	const { calls } = await sandboxControl<{ calls: RecordedCall[] }>('GET', '/calls');
	return calls.filter((call) => call.idempotencyKey === key && call.status !== 429);
}

describe('action node in a real n8n', () => {
	it(
		'sends through the sandbox with its idempotency key, and a rerun does not send twice',
		{ tags: ['every-line'] },
		async () => {
			const api = await n8nApi();
			const credential = await sandboxCredential(api);
			const key = unique('e2e-send');
			const text = unique('hello from n8n');
			const workflow = await api.createWorkflow(
				actionWorkflow(unique('e2e action'), credential, {
					resource: 'message',
					operation: 'send',
					channel: 'qr',
					sendTo: 'phoneNumber',
					phoneNumber: '4915112345678',
					messageType: 'text',
					text,
					options: { idempotencyKey: key },
				}),
			);

			const first = await api.waitForExecution(
				(await api.runManually(workflow.id, 'Start')).executionId,
			);
			expect(executionError(first)).toBeUndefined();
			expect(first.status).toBe('success');
			const [sent] = nodeOutput(first, 'Action') ?? [];
			expect(sent).toEqual(expect.objectContaining({ status: 'accepted', channel: 'qr' }));
			expect(sent.message_id).toEqual(expect.any(String));

			const [call] = await callsWithKey(key);
			expect(call).toEqual(
				expect.objectContaining({ tool: 'send_message', status: 200, replayed: false }),
			);
			expect(call.input).toEqual(expect.objectContaining({ phoneNumber: '4915112345678', text }));

			// The same key again, as after a retry or a manual rerun: the sandbox replays, nothing new is sent.
			const second = await api.waitForExecution(
				(await api.runManually(workflow.id, 'Start')).executionId,
			);
			expect(second.status).toBe('success');
			expect(nodeOutput(second, 'Action')?.[0]?.message_id).toBe(sent.message_id);
			expect((await callsWithKey(key)).map((c) => c.replayed)).toEqual([false, true]);
			const { sends } = await sandboxControl<{ sends: Array<{ idempotency_key: string }> }>(
				'GET',
				'/sends',
			);
			expect(sends.filter((s) => s.idempotency_key === key)).toHaveLength(1);
		},
	);

	it('records a failed execution with the API error when the key is invalid', async () => {
		const api = await n8nApi();
		const credential = await sandboxCredential(api, 'ma_sk_this_key_does_not_exist_0000000000');
		const workflow = await api.createWorkflow(
			actionWorkflow(unique('e2e action bad key'), credential, {
				resource: 'account',
				operation: 'getCapabilities',
			}),
		);
		const execution = await api.waitForExecution(
			(await api.runManually(workflow.id, 'Start')).executionId,
		);
		expect(execution.status).toBe('error');
		expect(executionError(execution)).toMatch(/invalid|key/i);
	});
});
