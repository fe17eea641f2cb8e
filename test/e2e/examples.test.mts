import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { replyBotPlan } from '../dev/replyBotModel.mjs';
import { exampleWorkflows, upsertCredential, withCredential } from '../dev/stack.mjs';
import { tryItCommands } from '../dev/tryIt.mjs';
import { FIRST, LINES } from '../dev/tryLines.mjs';
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
import { startScriptedModel } from './support/scriptedModel.mjs';

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

type Credential = { id: string; name: string };

async function importExample(
	api: N8nRestApi,
	file: string,
	modelCredential?: Credential,
): Promise<N8nWorkflow> {
	return api.createWorkflow(
		withCredential(examples()[file], await sandboxCredential(api), modelCredential),
	);
}

/** Activates, waits until the trigger has registered with the sandbox, runs `body`, deactivates. */
async function whileListening(
	api: N8nRestApi,
	file: string,
	body: (workflow: N8nWorkflow) => Promise<void>,
	modelCredential?: Credential,
) {
	const workflow = await importExample(api, file, modelCredential);
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

const WAITING = '… waiting for ';

/**
 * Runs a printed command as a reader would, in a shell; resolves to its exit code and its one line:
 * on stdout (exit 0), or the "run X first" line on stderr (exit 2). Anything else, a raw error or
 * JSON, fails: besides that line it may print only what it waits for.
 */
async function printed(
	command: string,
	lines: number | 'a table' = 1,
): Promise<{ code: number; line: string }> {
	// Longer than `npm run try`'s own minute of patience, after which it says what did not happen: a
	// staff note on QR may wait most of a minute for the number's 5 sends a minute.
	const { code, stdout, stderr } = await run('sh', ['-c', command], { timeout: 90_000 }).then(
		(output) => ({ code: 0, ...output }),
		(error: { code?: number; stdout?: string; stderr?: string }) => ({
			code: error.code ?? -1,
			stdout: error.stdout ?? '',
			stderr: error.stderr ?? '',
		}),
	);
	const said = stderr.split('\n').filter((line) => line !== '' && !line.startsWith(WAITING));
	if (code === 0) {
		expect(said, command).toEqual([]);
		if (lines !== 'a table') expect(stdout.trim().split('\n'), command).toHaveLength(lines);
		return { code, line: stdout.trim() };
	}
	expect({ code, stdout, said }, command).toEqual({
		code: 2,
		stdout: '',
		said: [expect.any(String)],
	});
	return { code, line: said[0] };
}

/** A printed command that does its part (exit 0); resolves to its one line. */
async function shell(command: string, lines: number | 'a table' = 1): Promise<string> {
	const { code, line } = await printed(command, lines);
	expect(code, `${command}: ${line}`).toBe(0);
	return line;
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

	it('on a fresh instance bot-off, bot-on and approve first say what to run first, or print their line; then ai-bot, bot-off, ai-bot in the paused chat (said at once), bot-on and hand-over print theirs', async ({
		skip,
	}) => {
		// About 25 s. The commands reach the sandbox and n8n's REST API alike in both modes; the AI reply
		// bot's grouping and takeover in queue mode are conversationAgent's and queueScale's.
		if (e2e().mode === 'queue') skip();
		expect(await printed(commands().pause)).toEqual({
			code: 2,
			line: FIRST.windowClosed('/bot off'),
		});
		expect(await printed(commands().resume)).toEqual({ code: 0, line: LINES.notPaused({}) });
		expect(await printed(commands().approve)).toEqual({ code: 2, line: FIRST.noQuestion() });
		const api = await n8nApi();
		const model = await startScriptedModel((prompt, _api, earlier) =>
			replyBotPlan(prompt, earlier),
		);
		try {
			const modelCredential = await upsertCredential(
				api,
				`e2e scripted model ${randomUUID()}`,
				{ apiKey: 'sk-scripted-model', url: model.url, header: false },
				'openAiApi',
			);
			const saved = async () =>
				(await sandboxControl<{ accounts: Array<{ messages: number }> }>('GET', '/state')).accounts;
			await whileListening(
				api,
				'ai-reply-bot',
				async () => {
					expect(await shell(commands().aiBot)).toMatch(
						/^Dana wrote 4 messages in [\d.]+ s; the AI reply bot answered [\d.]+ s after the last: ".+"$/,
					);
					expect(await shell(commands().pause)).toBe(LINES.botOff({}));
					const before = await saved();
					const paused = await printed(commands().aiBot);
					expect(paused.code).toBe(2);
					expect(paused.line).toMatch(
						/^Dana's chat is paused since \d{4}-\d\d-\d\d \d\d:\d\d UTC, when the account sent \/bot off: the AI reply bot stays silent there\. Run npm run -s try -- bot-on first$/,
					);
					// It wrote nothing: the pause was read at once, not waited out.
					expect(await saved()).toEqual(before);
					expect(await shell(commands().resume)).toBe(LINES.botOn({}));
					expect(await shell(commands().handOver)).toMatch(
						/^Dana asked for a person: the AI reply bot stays silent in her chat for 12 hours \(or until \/bot on\), and the staff number 919876543210 was told: "A customer asked for a person \(Dana, .+\); the bot answers again at .+ UTC, or when you send \/bot on: …"$/,
					);
				},
				modelCredential,
			);
		} finally {
			await model.stop();
		}
	});

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
			const line = await shell(commands().attachment);
			const execution = await firstSuccess(api, workflow.id);
			const [event] = nodeOutput(execution, 'On Message With File') ?? [];
			const file = join(e2e().filesDir, `${event.message_id}-invoice.txt`);
			// The command returned once the file was there, and named it.
			expect(line).toMatch(
				/^Bob sent invoice\.txt; the attachment saver saved it [\d.]+ s later: /,
			);
			expect(line.endsWith(`: ${file}`)).toBe(true);
			expect(existsSync(file)).toBe(true);
			expect(readFileSync(file, 'utf8')).toBe(content);
			ranOnWorker(execution);
		});
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
		expect((await shell(commands().runs, 'a table')).split('\n')).toContainEqual(
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

	it('refund approval, started and approved by the commands npm run dev prints, asks the manager over chat, waits, and tells the customer once', async () => {
		// One question (a second one, and answers in the chat, are tryActions.test's): each QR send
		// more here would wait out the QR number's minute after the suite's earlier sends.
		const api = await n8nApi();
		const before = (await sandboxControl<{ sends: Send[] }>('GET', '/sends')).sends.length;
		const executionId = await startFromTerminal(api, 'refund-approval', async (asked, workflow) => {
			// The command returned once the question was sent: it is there, and the run waits.
			const question = (await sandboxControl<{ sends: Send[] }>('GET', '/sends')).sends
				.slice(before)
				.find((send) => send.to === MANAGER);
			expect(question?.text).toMatch(
				/^Refund 25 EUR for order 1042\?\n\nReply 1 to Approve or 2 to Decline\n\nApprove: http\S+\nDecline: http\S+$/,
			);
			const [waiting] = await api.listExecutions(workflow.id);
			expect(waiting.status).toBe('waiting');
			expect(asked).toBe(
				LINES.refund({ run: waiting.id, question: '"Refund 25 EUR for order 1042? …"' }),
			);
			expect(await shell(commands().approve)).toBe(
				LINES.approved({
					way: 'opened the Approve link (HTTP 200)',
					run: waiting.id,
					told: '"Your refund of 25 EUR for order 1042 is approved."',
				}),
			);
			// None waits now: both say to ask again, and neither opens a link nor writes in the chat.
			const answered = { code: 2, line: FIRST.answered({ run: waiting.id, status: 'success' }) };
			expect(await printed(commands().approveInChat)).toEqual(answered);
			expect(await printed(commands().approve)).toEqual(answered);
			return waiting.id;
		});
		const execution = await api.waitForExecution(executionId, 100_000);
		expect(executionError(execution)).toBeUndefined();
		expect(nodeOutput(execution, 'Confirm the Refund')?.[0]).toEqual(
			expect.objectContaining({ status: 'accepted' }),
		);
		expect(nodeOutput(execution, 'Decline the Refund')).toBeUndefined();
		const sent = (await sandboxControl<{ sends: Send[] }>('GET', '/sends')).sends.slice(before);
		expect(sent.filter((send) => send.to === CUSTOMER).map((send) => send.text)).toEqual([
			'Your refund of 25 EUR for order 1042 is approved.',
		]);
		expect(sent.filter((send) => send.to === MANAGER)).toHaveLength(1);
	});
});
