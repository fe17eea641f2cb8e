import { randomInt, randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIAL_TYPE, NODE_TYPES, withCredential } from '../dev/stack.mjs';
import { startSandboxProcess, type SandboxProcess } from '../bench/sandboxProcess.js';
import { DEFAULT_N8N_VERSION } from '../support/n8nInstall.mjs';
import {
	executionError,
	nodeOutput,
	type N8nRestApi,
	type N8nWorkflow,
} from '../support/n8nRestApi.mjs';
import { findChromium, launchEditorBrowser, screenshot, signIn } from './support/browser.mjs';
import { e2e, n8nApi, waitFor } from './support/context.mjs';
import { askAndWait } from './support/sendAndWait.mjs';
import { workflowNode } from './support/workflows.mjs';

/*
 * Messaging Automation Catch-Up in a real n8n (issue 45): the poll node beside the trigger runs a
 * new chat's first message whose event the service lost (nothing follows it), and, after the
 * workflow was inactive for two hours of the service's clock, each burst written meanwhile within
 * Max Age once, leaving the older ones. Its own sandbox, whose clock the cases move ahead freely:
 * the suite's sandbox signs deliveries with its clock, which n8n checks against its own, and its
 * clock never goes back. Polls every minute; the first case waits for one or two polls (up to
 * 2 minutes), the second for none (n8n polls at activation). The third publishes a Catch-Up node on
 * another credential than the trigger's in the editor (review s6, R6-1): its activation fails,
 * naming the credential, where n8n 2.40.7 shows a trigger that could not be activated.
 */

const { mode, n8nVersion } = e2e();
const runsHere = mode === 'regular' && n8nVersion === DEFAULT_N8N_VERSION;
const MINUTE = 60_000;
const GOING = ['new', 'running'];

describe.runIf(runsHere)('Messaging Automation Catch-Up, in a real n8n', () => {
	let sandbox: SandboxProcess;
	let api: N8nRestApi;
	let workflow: N8nWorkflow;
	/** The suite's credential, on its own sandbox: the trigger's, the Catch-Up node's, the question's. */
	let asked: { id: string; name: string };
	let phones = 0;
	/** Where n8n's log stood before the activation. */
	let logFrom = 0;
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
	/**
	 * The Catch-Up node's items of every run n8n finished that is not in `seen`, oldest run first. A
	 * run still going is left out until it ends, so a case never counts the end of an earlier case's run.
	 */
	const catchUpRuns = async (seen: ReadonlySet<string> = new Set(), succeeded = false) => {
		const executions = (await api.listAllExecutions(workflow.id)).filter(
			({ id, status }) =>
				!seen.has(id) && !GOING.includes(status) && (!succeeded || status === 'success'),
		);
		const outputs = await Promise.all(
			executions.map(async ({ id }) => nodeOutput(await api.getExecution(id), 'Catch-Up')),
		);
		return outputs
			.filter((output) => output !== undefined)
			.reverse()
			.map((items) => items as Array<{ text: string; caught_up?: { reason: string } }>);
	};
	/** The workflow's executions once none is starting or running: what a case counts its runs after. */
	const settledExecutions = async () =>
		new Set(
			await waitFor('the earlier runs to end', async () => {
				const all = await api.listAllExecutions(workflow.id);
				return all.some(({ status }) => GOING.includes(status))
					? undefined
					: all.map(({ id }) => id);
			}),
		);

	const credentialOf = async (name: string, apiKey: string) =>
		await api.createCredential({
			name,
			type: CREDENTIAL_TYPE,
			data: { apiKey, baseUrl: sandbox.url, authScheme: 'bearer' },
		});
	/** The trigger and the Catch-Up node, both leading to one next node, as the README sets them up. */
	const besideEachOther = (
		nodes: Array<Record<string, unknown> & { name: string; type: string }>,
	) => ({
		nodes: [...nodes, workflowNode('Reply', 'n8n-nodes-base.noOp', 1, [300, 100], {})],
		connections: Object.fromEntries(
			nodes.map((node) => [node.name, { main: [[{ node: 'Reply', type: 'main', index: 0 }]] }]),
		),
		settings: { executionOrder: 'v1' },
	});

	beforeAll(async () => {
		sandbox = await startSandboxProcess();
		api = await n8nApi();
		const credential = await credentialOf(`e2e catch-up ${randomUUID()}`, sandbox.keys.owner);
		asked = { id: credential.id, name: credential.name };
		const trigger = {
			...workflowNode('Trigger', NODE_TYPES.trigger, 1.1, [0, 0], {
				events: ['message.received'],
				groupQuickMessages: true,
				quietWindowSeconds: 3,
				longestWaitSeconds: 30,
				// The Catch-Up node follows these (shared in static data at activation).
				catchUpHours: 1,
				answersToSendAndWait: true,
			}),
			webhookId: randomUUID(),
		};
		const catchUp = workflowNode('Catch-Up', NODE_TYPES.catchUp, 1, [0, 200], {
			pollTimes: { item: [{ mode: 'everyMinute' }] },
		});
		workflow = await api.createWorkflow(
			withCredential(
				{ name: `e2e catch-up ${randomUUID()}`, ...besideEachOther([trigger, catchUp]) },
				asked,
			),
		);
		logFrom = statSync(e2e().n8nLog).size;
		await api.activateWorkflow(workflow.id);
		// n8n 2.x may answer before its activation's poll ran: that poll sets the node's floor (what
		// was written before it is never caught up).
		await waitFor('the activation poll', async () => ((await listReads()) > 0 ? true : undefined));
	});

	it('publishes beside its trigger without saying that no trigger is active (R6-1)', () => {
		const log = readFileSync(e2e().n8nLog).subarray(logFrom).toString();
		expect(log.split('\n').filter((line) => line.includes('catches up nothing'))).toEqual([]);
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
		await settledExecutions();
		expect(await catchUpRuns()).toEqual(runs);
		expect(runs.map((items) => items.map((item) => [item.text, item.caught_up?.reason]))).toEqual([
			[['hello, is this the bike shop?', 'event never delivered']],
		]);
	}, 300_000);

	// S8-1's class: a reply no run passed on (its event lost here; n8n stopped while offering it in
	// the simulator and the engine tests). The poll's own context names this n8n's waiting-webhook
	// URL, so it probes and offers through the question's link; the node decides from its own read.
	it('passes a "1" whose event was lost to the Send and Wait question still waiting: it resumes once, approved, and nothing runs as a message', async () => {
		const manager = person('Manager');
		const { executionId } = await askAndWait(
			api,
			asked,
			'e2e catch-up answer',
			{
				phoneNumber: manager.phone,
				message: `May we refund order ${randomInt(100_000, 999_999)}?`,
				answerInChat: true,
				approvalOptions: { values: { approvalType: 'double' } },
			},
			sandbox.control,
		);
		const seen = await settledExecutions();
		await sandbox.control('POST', '/webhooks/faults', { lose: 1 });
		await write('1', manager);
		await advance(4 * MINUTE);
		const execution = await api.waitForExecution(executionId, 180_000);
		expect(executionError(execution)).toBeUndefined();
		expect(nodeOutput(execution, 'Action')?.[0]).toMatchObject({ data: { approved: true } });
		const runs = await catchUpRuns(seen);
		expect(runs.flat().map((item) => item.text)).toEqual([]);
	}, 240_000);

	it('after 2 hours inactive runs each burst within Max Age once and leaves the older ones', async () => {
		const seen = await settledExecutions();
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
		const runs = await waitFor(
			'the catch-up run after the activation',
			async () => {
				const found = await catchUpRuns(seen, true);
				return found.length > 0 ? found : undefined;
			},
			// One poll more when the activation's failed.
			150_000,
		);
		// n8n 2.40.7 may run the activation's poll before it saved the settings the trigger shares:
		// that run fails, claiming nothing, and the next poll runs the bursts.
		const failed = (await api.listAllExecutions(workflow.id)).filter(
			({ id, status }) => !seen.has(id) && status === 'error',
		);
		for (const { id } of failed)
			expect(executionError(await api.getExecution(id))).toMatch(
				/^Ran nothing yet: n8n had not yet saved the trigger's settings/,
			);
		expect(runs.map((items) => items.map((item) => [item.text, item.caught_up?.reason]))).toEqual([
			[
				['written 50 min ago', 'written while the workflow was inactive'],
				['written 10 min ago', 'written while the workflow was inactive'],
			],
		]);
	}, 240_000);

	const executablePath = findChromium();
	it.runIf(executablePath)(
		"fails the activation of a Catch-Up node on another credential than the trigger's when publishing, naming it",
		async () => {
			const owner = await credentialOf(`e2e shop A ${randomUUID()}`, sandbox.keys.owner);
			const other = await credentialOf('Shop B (second account)', sandbox.keys.noConsent);
			const uses = (credential: { id: string; name: string }) => ({
				messagingAutomationApi: { id: credential.id, name: credential.name },
			});
			const copied = await api.createWorkflow({
				name: `e2e catch-up on another credential ${randomUUID()}`,
				...besideEachOther([
					{
						...workflowNode('Trigger', NODE_TYPES.trigger, 1.1, [0, 0], {
							events: ['message.received'],
							groupQuickMessages: true,
						}),
						webhookId: randomUUID(),
						credentials: uses(owner),
					},
					{
						...workflowNode('Catch-Up', NODE_TYPES.catchUp, 1, [0, 200], {
							pollTimes: { item: [{ mode: 'everyMinute' }] },
						}),
						credentials: uses(other),
					},
				]),
			});
			const { browser, page } = await launchEditorBrowser(executablePath as string);
			try {
				await signIn(page, e2e().n8nUrl, e2e().owner);
				await page.goto(`${e2e().n8nUrl}/workflow/${copied.id}`);
				await page.locator('[data-test-id="workflow-open-publish-modal-button"]').click();
				await page.locator('[data-test-id="workflow-publish-button"]').click();
				const told = page.locator('.el-notification').filter({ hasText: 'Shop B' });
				await told.first().waitFor({ timeout: 60_000 });
				await screenshot(page, 'k-catch-up-other-credential');
				// n8n 2.40.7 publishes the rest (the trigger serves) and says which trigger failed, and why.
				expect(await told.first().innerText()).toMatch(
					/Some triggers could not be activated[\s\S]*"Catch-Up"[\s\S]*credential, "Shop B \(second account\)", is not the one the Messaging Automation Trigger "Trigger" uses/,
				);
			} finally {
				await browser.close();
				await api.deactivateWorkflow(copied.id).catch(() => undefined);
			}
		},
		120_000,
	);
});
