import type { N8nExecution, N8nRestApi } from '../../support/n8nRestApi.mjs';
import { executionError } from '../../support/n8nRestApi.mjs';
import { sandboxControl, unique, waitFor } from './context.mjs';
import { actionWorkflow } from './workflows.mjs';

/** A send as the sandbox lists it. */
export interface Sent {
	text: string;
	to: string;
	idempotency_key: string;
	message_id: string;
}

/**
 * Runs a workflow whose only action is Message › Send and Wait on QR with `parameters` (the
 * Message a text no other test sends); resolves once the execution waits, with the question as the
 * sandbox sent it.
 */
export async function askAndWait(
	api: N8nRestApi,
	credential: { id: string; name: string },
	name: string,
	parameters: { message: string } & Record<string, unknown>,
	/** The sandbox the credential points at: the suite's unless said. */
	control: <T>(method: 'GET' | 'POST', path: string) => Promise<T> = sandboxControl,
): Promise<{ executionId: string; waiting: N8nExecution; sent: Sent }> {
	const workflow = await api.createWorkflow(
		actionWorkflow(unique(name), credential, {
			resource: 'message',
			operation: 'sendAndWait',
			channel: 'qr',
			sendTo: 'phoneNumber',
			...parameters,
		}),
	);
	// The account's QR number may send 5 messages a minute (the spec's Limits) and the suites ask more
	// often: the sandbox forgets the sends counted so far, so a question never waits out the service's
	// Retry-After (up to a minute) in real time. Moving the sandbox's clock instead would soon put it past
	// the webhook signatures' five-minute tolerance.
	await control('POST', '/limits/qr-sends/reset');
	const startedAt = Date.now();
	const { executionId } = await api.runManually(workflow.id, 'Start');
	const runAfter = Date.now() - startedAt;
	const waiting = await waitFor('the execution to wait', async () => {
		const execution = await api.getExecution(executionId);
		if (execution.status === 'error')
			throw new Error(`execution failed: ${executionError(execution)}`);
		return execution.status === 'waiting' ? execution : undefined;
	});
	const sent = await waitFor('the question in the sandbox', async () => {
		const { sends } = await control<{ sends: Sent[] }>('GET', '/sends');
		return sends.find((send) => send.text.startsWith(parameters.message));
	});
	const askedIn = Date.now() - startedAt;
	// A slow question is a finding of its own (n8n or the sandbox stalled), named where it happened.
	if (askedIn > 5_000)
		console.log(
			`[e2e ask] slow: run started after ${runAfter} ms, asked in ${askedIn} ms (execution ${executionId} ${waiting.status})`,
		);
	return { executionId, waiting, sent };
}
