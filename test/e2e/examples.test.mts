import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { exampleWorkflows, withCredential } from '../dev/stack.mjs';
import { tryItCommands } from '../dev/tryIt.mjs';
import {
	executionError,
	nodeOutput,
	type N8nExecution,
	type N8nRestApi,
	type N8nWorkflow,
} from '../support/n8nRestApi.mjs';
import {
	e2e,
	n8nApi,
	sandboxControl,
	sandboxCredential,
	unique,
	waitFor,
} from './support/context.mjs';

interface RecordedCall {
	tool: string;
	idempotencyKey: string | null;
	input: Record<string, unknown>;
	status: number;
}

interface Send {
	to: string;
	text: string;
}

const run = promisify(execFile);

/** The refund example's manager and customer (test/dev/workflows/refund-approval.json). */
const MANAGER = '447700900123';
const CUSTOMER = '4915112345678';
/** The staff number the undelivered-messages example tells. */
const STAFF = '919876543210';

interface Delivery {
	endpointId: string;
	status: string;
	payload: string | null;
}

/** The examples `npm run dev` imports (test/dev/workflows), run here exactly as shipped. */
const examples = () => exampleWorkflows(e2e().filesDir);

async function importExample(api: N8nRestApi, file: string): Promise<N8nWorkflow> {
	return api.createWorkflow(withCredential(examples()[file], await sandboxCredential(api)));
}

/** Activates, waits until the trigger has registered with the sandbox, runs `body`, deactivates. */
async function whileListening(
	api: N8nRestApi,
	file: string,
	body: (workflow: N8nWorkflow) => Promise<void>,
) {
	const workflow = await importExample(api, file);
	await api.activateWorkflow(workflow.id);
	try {
		const webhookId = examples()[file].nodes.find((node) => node.webhookId)?.webhookId;
		const url = `${e2e().webhookBaseUrl}/webhook/${webhookId}/webhook`;
		await waitFor(`${file} to register its endpoint`, async () => {
			const { endpoints } = await sandboxControl<{
				endpoints: Array<{ url: string; status: string }>;
			}>('GET', '/webhooks');
			return endpoints.find((endpoint) => endpoint.url === url && endpoint.status === 'active');
		});
		await body(workflow);
	} finally {
		await api.deactivateWorkflow(workflow.id);
	}
}

async function firstSuccess(api: N8nRestApi, workflowId: string): Promise<N8nExecution> {
	const [execution] = await waitFor('a successful execution', async () => {
		const list = await api.listExecutions(workflowId);
		return list.some((e) => e.status === 'success') ? list : undefined;
	});
	return api.getExecution(execution.id);
}

function ranOnWorker(execution: N8nExecution) {
	// In queue mode the delivery reached the webhook process and the worker ran the execution.
	if (e2e().mode === 'queue') {
		// Every worker's log, including any that replaced one stopped by queueScale.test.mts.
		const folder = e2e().userFolder;
		const logs = readdirSync(folder)
			.filter((name) => /^n8n-worker.*\.log$/.test(name))
			.map((name) => readFileSync(join(folder, name), 'utf8'));
		expect(
			logs.filter((log) => log.includes(`Worker started execution ${execution.id} (job`)),
		).toHaveLength(1);
	}
}

/** The commands `npm run dev` prints (test/dev/tryIt.mjs), for this suite's sandbox and n8n. */
const commands = () =>
	tryItCommands({
		sandboxUrl: e2e().sandboxUrl,
		n8nUrl: e2e().n8nUrl,
		webhookBaseUrl: e2e().webhookBaseUrl,
	});

/** Sends the sandbox's order update template to a new Business number; resolves to its message id. */
async function businessTemplate(key: string): Promise<string> {
	const response = await fetch(`${e2e().sandboxUrl}/api/v1/tools/send_message`, {
		method: 'POST',
		headers: {
			authorization: `Bearer ${e2e().keys.owner}`,
			'idempotency-key': key,
			'content-type': 'application/json',
		},
		body: JSON.stringify({
			channel: 'business',
			phoneNumber: `4917${String(Date.now()).slice(-8)}`,
			templateName: 'order_update',
			templateLanguage: 'en',
			templateParameters: ['Frank', '1045', 'delivered'],
			recipientOptInConfirmed: true,
		}),
	});
	expect(response.status).toBe(200);
	return ((await response.json()) as { message_id: string }).message_id;
}

/** Runs a printed command as a reader would, in a shell; resolves to what it printed. */
async function shell(command: string): Promise<string> {
	// Longer than `npm run try`'s own minute of patience, after which it says what did not happen: a
	// staff note on QR may wait most of a minute for the number's 5 sends a minute.
	const { stdout } = await run('sh', ['-c', command], { timeout: 90_000 });
	return stdout.trim();
}

/**
 * Publishes an example that starts by hand, starts it with the command `npm run dev` prints (through
 * its webhook, as on a server without a browser; the command waits for the effect and says what
 * happened), and resolves to what `started` resolves to, given that one line.
 */
async function startFromTerminal<T>(
	api: N8nRestApi,
	file: 'campaign-from-list' | 'refund-approval',
	started: (printed: string, workflow: N8nWorkflow) => Promise<T>,
): Promise<T> {
	const workflow = await importExample(api, file);
	await api.activateWorkflow(workflow.id);
	try {
		const command = file === 'refund-approval' ? commands().refund : commands().campaign;
		// The command retries while n8n answers 404, until publishing has registered the webhook.
		return await started(await shell(command), workflow);
	} finally {
		await api.deactivateWorkflow(workflow.id);
	}
}

describe('example workflows in a real n8n', () => {
	it(
		'reply bot answers the message npm run dev prints once, keyed on the event id',
		{ tags: ['every-line'] },
		async () => {
			const api = await n8nApi();
			await whileListening(api, 'reply-bot', async (workflow) => {
				const text = 'Hello!';
				const printed = await shell(commands().replyBot);
				const execution = await firstSuccess(api, workflow.id);
				const [event] = nodeOutput(execution, 'On Incoming Message') ?? [];
				const [reply] = nodeOutput(execution, 'Reply to Sender') ?? [];
				expect(event.text).toBe(text);
				expect(reply).toEqual(
					expect.objectContaining({ status: 'accepted', conversation_id: event.conversation_id }),
				);
				const { calls } = await sandboxControl<{ calls: RecordedCall[] }>('GET', '/calls');
				// A 429 (earlier tests used up this minute's QR sends) is refused before anything is done; the node retries.
				const replies = calls.filter(
					(call) =>
						call.tool === 'send_message' &&
						call.status !== 429 &&
						call.idempotencyKey?.startsWith(`${event.event_id}:`),
				);
				expect(replies).toHaveLength(1);
				expect(replies[0].input).toEqual(
					expect.objectContaining({ conversationId: event.conversation_id }),
				);
				expect(String(replies[0].input.text)).toContain(text);
				// The command waited for that reply and printed it.
				expect(printed).toMatch(
					/^Alice wrote "Hello!"; the reply bot answered [\d.]+ s later: "Thanks Alice, we got your message: "Hello!""$/,
				);
				ranOnWorker(execution);
			});
		},
	);

	it(
		'undelivered messages: the order update npm run dev prints fails, and staff are told once to whom and why; a delivered status tells nobody',
		{ tags: ['every-line'] },
		async () => {
			const api = await n8nApi();
			await whileListening(api, 'undelivered-messages', async (workflow) => {
				const webhookId = examples()['undelivered-messages'].nodes.find(
					(node) => node.webhookId,
				)?.webhookId;
				const before = (await sandboxControl<{ sends: Send[] }>('GET', '/sends')).sends.length;
				const delivered = await businessTemplate(unique('e2e-delivered'));
				await sandboxControl('POST', '/inject/status', {
					message_id: delivered,
					status: 'delivered',
				});
				// n8n answered the delivered status (2xx) before the failure is made: had it started a
				// run, that run would be counted below.
				const { endpoints } = await sandboxControl<{
					endpoints: Array<{ id: string; url: string }>;
				}>('GET', '/webhooks');
				const endpoint = endpoints.find((entry) =>
					entry.url.endsWith(`/webhook/${webhookId}/webhook`),
				);
				expect(endpoint).toBeDefined();
				await waitFor('the delivered status answered', async () => {
					const { deliveries } = await sandboxControl<{ deliveries: Delivery[] }>(
						'GET',
						'/webhooks',
					);
					return deliveries.some(
						(entry) =>
							entry.endpointId === endpoint!.id &&
							entry.status === 'delivered' &&
							entry.payload?.includes(delivered),
					)
						? true
						: undefined;
				});

				const printed = (await shell(commands().undelivered)).trim();
				const failed = { message_id: /\(([^)]+)\) was accepted/.exec(printed)?.[1] };
				const execution = await firstSuccess(api, workflow.id);
				const [event] = nodeOutput(execution, 'On Failed Message') ?? [];
				expect(event).toMatchObject({
					message_id: failed.message_id,
					status_reason: expect.any(String),
				});
				expect((await api.listExecutions(workflow.id)).length).toBe(1);
				const notes = (await sandboxControl<{ sends: Send[] }>('GET', '/sends')).sends
					.slice(before)
					.filter((send) => send.to === STAFF);
				const note = `A Business message to 4915700000000 failed (${failed.message_id}). The message was not delivered: Message undeliverable (code 131026).`;
				expect(notes.map((entry) => entry.text)).toEqual([note]);
				expect(printed).toBe(
					`The order update to 4915700000000 (${failed.message_id}) was accepted, then reported failed; the staff number ${STAFF} was told: "${note}"`,
				);
				ranOnWorker(execution);
			});
		},
	);

	it('attachment saver writes the file of the message npm run dev prints to disk', async () => {
		const api = await n8nApi();
		await whileListening(api, 'attachment-saver', async (workflow) => {
			const content = 'Invoice 42: 10 EUR';
			await shell(commands().attachment);
			const execution = await firstSuccess(api, workflow.id);
			const [event] = nodeOutput(execution, 'On Message With File') ?? [];
			const file = join(e2e().filesDir, `${event.message_id}-invoice.txt`);
			expect(existsSync(file)).toBe(true);
			expect(readFileSync(file, 'utf8')).toBe(content);
			ranOnWorker(execution);
		});
	});

	it('refund approval, started and approved by the commands npm run dev prints, asks the manager over chat, waits, and tells the customer once', async () => {
		const api = await n8nApi();
		const before = (await sandboxControl<{ sends: Send[] }>('GET', '/sends')).sends.length;
		const executionId = await startFromTerminal(
			api,
			'refund-approval',
			async (printed, workflow) => {
				// The command returned once the question was sent: it is there, and the run waits.
				const question = (await sandboxControl<{ sends: Send[] }>('GET', '/sends')).sends
					.slice(before)
					.find((send) => send.to === MANAGER);
				expect(question?.text).toMatch(
					/^Refund 25 EUR for order 1042\?\n\nReply 1 to Approve or 2 to Decline\n\nApprove: http\S+\nDecline: http\S+$/,
				);
				const [waiting] = await api.listExecutions(workflow.id);
				expect(waiting.status).toBe('waiting');
				expect(printed).toBe(
					`Question sent to the manager ${MANAGER}; run ${waiting.id} waits for the answer: "Refund 25 EUR for order 1042? …"`,
				);
				expect(await shell(commands().approve)).toBe(
					`Approved: the manager opened the Approve link (HTTP 200), run ${waiting.id} finished and told the customer ${CUSTOMER} "Your refund of 25 EUR for order 1042 is approved."`,
				);
				// Run again, it finds the question answered and opens no link of an earlier one.
				expect(await shell(commands().approve)).toBe(
					`No question waiting: the last one to the manager (run ${waiting.id}) is answered already (success). Ask again: npm run -s try -- refund`,
				);
				return waiting.id;
			},
		);
		const execution = await api.waitForExecution(executionId, 100_000);
		expect(executionError(execution)).toBeUndefined();
		expect(nodeOutput(execution, 'Confirm the Refund')?.[0]).toEqual(
			expect.objectContaining({ status: 'accepted' }),
		);
		expect(nodeOutput(execution, 'Decline the Refund')).toBeUndefined();
		const toCustomer = (await sandboxControl<{ sends: Send[] }>('GET', '/sends')).sends
			.slice(before)
			.filter((send) => send.to === CUSTOMER);
		expect(toCustomer.map((send) => send.text)).toEqual([
			'Your refund of 25 EUR for order 1042 is approved.',
		]);
	});

	it('campaign example, started by the command npm run dev prints, creates a draft and adds the listed recipients in one deduplicated batch', async () => {
		const api = await n8nApi();
		const { printed, runId } = await startFromTerminal(
			api,
			'campaign-from-list',
			async (printed, workflow) => {
				// The command returned once the run had finished.
				const [run] = await api.listExecutions(workflow.id);
				return { printed, runId: run.id };
			},
		);
		const execution = await api.waitForExecution(runId);
		expect(executionError(execution)).toBeUndefined();
		const [campaign] = nodeOutput(execution, 'Create Campaign') ?? [];
		expect(printed).toBe(
			`Run ${runId} created the campaign "Order updates (example)" (${campaign.campaign_id}): draft, 3 recipients`,
		);
		// The runs command lists it with its status, as the editor's executions list does.
		expect((await shell(commands().runs)).split('\n')).toContainEqual(
			expect.stringMatching(
				new RegExp(`^${runId} +success +Example: campaign from a list of recipients +\\d`),
			),
		);
		const batches = nodeOutput(execution, 'Add Recipients in Batches') ?? [];
		expect(batches).toHaveLength(1);
		expect(batches[0]).toEqual(
			expect.objectContaining({ campaign_id: campaign.campaign_id, added: 3, recipient_count: 3 }),
		);
		const { calls } = await sandboxControl<{ calls: RecordedCall[] }>('GET', '/calls');
		const adds = calls.filter(
			(call) =>
				call.tool === 'add_campaign_recipients' && call.input.campaignId === campaign.campaign_id,
		);
		expect(adds).toHaveLength(1);
		expect(adds[0].idempotencyKey).toEqual(expect.any(String));
		ranOnWorker(execution);
	});
});
