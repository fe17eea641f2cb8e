import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIAL_TYPE, NODE_TYPES, withCredential } from '../dev/stack.mjs';
import { startSandboxProcess, type SandboxProcess } from '../bench/sandboxProcess.js';
import { DEFAULT_N8N_VERSION } from '../support/n8nInstall.mjs';
import { nodeOutput, type N8nRestApi, type N8nWorkflow } from '../support/n8nRestApi.mjs';
import { e2e, n8nApi, waitFor } from './support/context.mjs';
import { workflowNode } from './support/workflows.mjs';

/*
 * Messaging Automation Catch-Up in a real n8n (issue 45): the poll node beside the trigger runs a
 * new chat's first message whose event the service lost (nothing follows it), and, after the
 * workflow was inactive for two hours of the service's clock, each burst written meanwhile within
 * Max Age once, leaving the older ones. Its own sandbox, whose clock the cases move ahead freely:
 * the suite's sandbox signs deliveries with its clock, which n8n checks against its own, and its
 * clock never goes back. Polls every minute; the first case waits for one or two polls (up to
 * 2 minutes), the second for none (n8n polls at activation).
 */

const { mode, n8nVersion } = e2e();
const runsHere = mode === 'regular' && n8nVersion === DEFAULT_N8N_VERSION;
const MINUTE = 60_000;

describe.runIf(runsHere)('Messaging Automation Catch-Up, in a real n8n', () => {
	let sandbox: SandboxProcess;
	let api: N8nRestApi;
	let workflow: N8nWorkflow;
	let phones = 0;
	const person = (name: string) => ({
		phone: `4917${String(Date.now() % 1e6).padStart(6, '0')}${String(++phones).padStart(2, '0')}`,
		name,
	});
	const write = async (text: string, from: { phone: string; name: string }) => {
		const { saved } = await sandbox.control<{ saved: boolean }>('POST', '/inject/message', {
			from,
			text,
		});
		expect(saved).toBe(true);
	};
	const advance = async (advanceMs: number) =>
		void (await sandbox.control('POST', '/clock', { advanceMs }));
	const listReads = async () =>
		(await sandbox.calls()).filter((call: { tool: string }) => call.tool === 'list_conversations')
			.length;
	/** The Catch-Up node's items of every run so far, oldest run first. */
	const catchUpRuns = async () => {
		const executions = await api.listAllExecutions(workflow.id);
		const outputs = await Promise.all(
			executions.map(async ({ id }) => nodeOutput(await api.getExecution(id), 'Catch-Up')),
		);
		return outputs
			.filter((output) => output !== undefined)
			.reverse()
			.map((items) => items as Array<{ text: string; caught_up?: { reason: string } }>);
	};

	beforeAll(async () => {
		sandbox = await startSandboxProcess();
		api = await n8nApi();
		const credential = await api.createCredential({
			name: `e2e catch-up ${randomUUID()}`,
			type: CREDENTIAL_TYPE,
			data: { apiKey: sandbox.keys.owner, baseUrl: sandbox.url, authScheme: 'bearer' },
		});
		const trigger = {
			...workflowNode('Trigger', NODE_TYPES.trigger, 1.1, [0, 0], {
				events: ['message.received'],
				groupQuickMessages: true,
				quietWindowSeconds: 3,
				longestWaitSeconds: 30,
				// The Catch-Up node follows these (shared in static data at activation).
				catchUpHours: 1,
			}),
			webhookId: randomUUID(),
		};
		const catchUp = workflowNode('Catch-Up', NODE_TYPES.catchUp, 1, [0, 200], {
			pollTimes: { item: [{ mode: 'everyMinute' }] },
		});
		workflow = await api.createWorkflow(
			withCredential(
				{
					name: `e2e catch-up ${randomUUID()}`,
					nodes: [trigger, catchUp],
					connections: {},
					settings: { executionOrder: 'v1' },
				},
				{ id: credential.id, name: credential.name },
			),
		);
		await api.activateWorkflow(workflow.id);
		// n8n 2.x may answer before its activation's poll ran: that poll sets the node's floor (what
		// was written before it is never caught up).
		await waitFor('the activation poll', async () => ((await listReads()) > 0 ? true : undefined));
	});

	afterAll(async () => {
		if (workflow) await api.deactivateWorkflow(workflow.id).catch(() => undefined);
		await sandbox?.stop();
	});

	it("runs a new chat's first message whose event was lost, nothing after it, once, caught up", async () => {
		await sandbox.control('POST', '/webhooks/faults', { lose: 1 });
		await write('hello, is this the bike shop?', person('New customer'));
		// The service's clock 4 minutes on: the next poll finds the burst closed 3 minutes ago.
		await advance(4 * MINUTE);
		const runs = await waitFor(
			'the catch-up run',
			async () => {
				const found = await catchUpRuns();
				return found.length > 0 ? found : undefined;
			},
			150_000,
		).catch(async (error: unknown) => {
			const calls = (await sandbox.calls()).map(
				(call: { tool: string; at: string; status: number }) =>
					`${call.at} ${call.tool} ${call.status}`,
			);
			const executions = (await api.listAllExecutions(workflow.id)).map((execution) =>
				JSON.stringify(execution),
			);
			console.log(
				`[e2e catch-up] calls:\n${calls.join('\n')}\nexecutions:\n${executions.join('\n')}`,
			);
			throw error;
		});
		// One more poll runs nothing more.
		const reads = await listReads();
		await waitFor(
			'the next poll',
			async () => ((await listReads()) > reads ? true : undefined),
			90_000,
		);
		expect(await catchUpRuns()).toEqual(runs);
		expect(runs.map((items) => items.map((item) => [item.text, item.caught_up?.reason]))).toEqual([
			[['hello, is this the bike shop?', 'event never delivered']],
		]);
	}, 300_000);

	it('after 2 hours inactive runs each burst within Max Age once and leaves the older ones', async () => {
		const before = (await catchUpRuns()).length;
		await api.deactivateWorkflow(workflow.id);
		await advance(10 * MINUTE);
		await write('written 1 h 50 min ago', person('Early'));
		await advance(60 * MINUTE);
		await write('written 50 min ago', person('Middle'));
		await advance(40 * MINUTE);
		await write('written 10 min ago', person('Late'));
		await advance(10 * MINUTE);
		// n8n polls once at activation: that poll covers the inactive time.
		await api.activateWorkflow(workflow.id);
		const runs = await waitFor('the catch-up run after the activation', async () => {
			const found = await catchUpRuns();
			return found.length > before ? found.slice(before) : undefined;
		});
		expect(runs.map((items) => items.map((item) => [item.text, item.caught_up?.reason]))).toEqual([
			[
				['written 50 min ago', 'written while the workflow was inactive'],
				['written 10 min ago', 'written while the workflow was inactive'],
			],
		]);
	}, 120_000);
});
