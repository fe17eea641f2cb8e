import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import {
	exampleWorkflows,
	NODE_TYPES,
	sandboxCredentialData,
	upsertCredential,
	withCredential,
} from '../dev/stack.mjs';
import type { N8nRestApi } from '../support/n8nRestApi.mjs';
import {
	editor,
	findChromium,
	launchEditorBrowser,
	NO_BROWSER_REASON,
	screenshot,
	settledTexts,
	signIn,
	visibleParameterLabels,
} from './support/browser.mjs';
import { e2e, n8nApi } from './support/context.mjs';
import { catchUpTakeoverWorkflow, catchUpWorkflow } from './support/workflows.mjs';

// The action node as a person meets it in n8n's editor (issue 10's acceptance): headless Chromium
// (Debian's package) signs in to the suite's n8n and looks at the nodes panel (the actions and the
// trigger's entries), the node's parameters, the example workflows and the credential dialog. Each
// state is saved as a PNG in test/e2e/screenshots/.

const PACKAGE_ENTRY = 'Messaging Automation';
const CREDENTIAL_NAME = 'Messaging Automation (sandbox)';
const executablePath = findChromium();
// The editor is the same page in queue mode (only executions move to workers): regular mode covers it.
const skipReason =
	e2e().mode === 'queue'
		? 'queue mode: the editor is the same as in regular mode, where these tests run'
		: executablePath
			? undefined
			: NO_BROWSER_REASON;
if (skipReason)
	console.warn(`[e2e ${e2e().mode}] editor tests in a browser skipped: ${skipReason}`);

const examples = exampleWorkflows(e2e().filesDir);

interface OperationOption {
	name: string;
	value: string;
}
interface NodeProperty {
	name: string;
	displayName: string;
	default?: unknown;
	options?: OperationOption[];
	typeOptions?: Record<string, unknown>;
	displayOptions?: { show?: Record<string, unknown[]> };
}

describe.skipIf(skipReason)('the action node in the n8n editor (headless Chromium)', () => {
	let browser: Browser;
	let page: Page;
	let api: N8nRestApi;
	let credential: { id: string; name: string };
	const exampleIds: Record<string, string> = {};
	let properties: NodeProperty[] = [];

	beforeAll(async () => {
		api = await n8nApi();
		const { sandboxUrl, keys } = e2e();
		// What `npm run dev` sets up: the sandbox credential and the example workflows using it.
		credential = await upsertCredential(
			api,
			CREDENTIAL_NAME,
			sandboxCredentialData({ url: sandboxUrl, apiKey: keys.owner }),
		);
		// The AI example's chat model credential, as `npm run dev` makes it (no model answers here: the page only opens).
		const model = await upsertCredential(
			api,
			'Scripted model (sandbox)',
			{ apiKey: 'sk-scripted-model', url: 'http://127.0.0.1:9/v1', header: false },
			'openAiApi',
		);
		for (const [file, workflow] of Object.entries(examples)) {
			exampleIds[file] = (await api.createWorkflow(withCredential(workflow, credential, model))).id;
		}
		const [description] = await api.request('POST', '/node-types', {
			nodeInfos: [{ name: NODE_TYPES.action, version: 1 }],
		});
		properties = description.properties;
		({ browser, page } = await launchEditorBrowser(executablePath as string));
		// n8n asks before leaving a workflow with unsaved changes; the tests always leave.
		page.on('dialog', (dialog) => void dialog.accept());
		await signIn(page, e2e().n8nUrl, e2e().owner);
	}, 180_000);

	afterAll(async () => {
		await browser?.close();
	});

	/** On failure, a picture of what the browser showed, next to the run's logs (not committed). */
	function pictureOnFailure(name: string) {
		onTestFailed(async () => {
			const runDir = process.env.E2E_RUN_DIR;
			if (!runDir || !page) return;
			await page.screenshot({ path: join(runDir, `failed-${name}.png`) }).catch(() => undefined);
		});
	}

	const isCredentialTest = (response: Response) =>
		response.url().endsWith('/rest/credentials/test') && response.request().method() === 'POST';

	/** Opens a saved credential's dialog, which tests it on opening; returns the test's answer. */
	async function openCredentialDialog(id: string) {
		const ui = editor(page);
		const tested = page.waitForResponse(isCredentialTest, { timeout: 45_000 });
		await page.goto(`${e2e().n8nUrl}/home/credentials/${id}`);
		await ui.credentialDialog.waitFor({ timeout: 45_000 });
		return { ui, result: (await (await tested).json()).data };
	}

	/** A fresh workflow holding only a Manual Trigger, open in the editor (n8n autosaves, so never an example). */
	async function openScratchWorkflow(): Promise<ReturnType<typeof editor>> {
		const workflow = await api.createWorkflow({
			name: `Editor check ${randomUUID().slice(0, 8)}`,
			nodes: [
				{
					id: randomUUID(),
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		await page.goto(`${e2e().n8nUrl}/workflow/${workflow.id}`);
		const ui = editor(page);
		await ui.canvasNode('Start').waitFor();
		return ui;
	}

	/** Opens the nodes panel ("What happens next?") and types into its search. */
	async function searchNodesPanel(ui: ReturnType<typeof editor>, text: string) {
		await ui.openNodeCreatorButton.click();
		await ui.nodeCreatorSearch.fill(text);
	}

	/** The package's entry in the nodes panel, opened: its actions view. */
	async function openPackageEntry(ui: ReturnType<typeof editor>, search = PACKAGE_ENTRY) {
		await searchNodesPanel(ui, search);
		await ui.nodeCreatorItem(PACKAGE_ENTRY).first().click();
		await ui.categoryHeader('Actions').waitFor();
	}

	/** Adds the action "Send a message" from the panel; n8n then opens the node's parameters. */
	async function addSendMessage(ui: ReturnType<typeof editor>) {
		await openPackageEntry(ui);
		const action = ui.actionItem('Send a message');
		await action.waitFor({ timeout: 5_000 }).catch(async () => {
			const offered = await settledTexts(ui.actionItems);
			throw new Error(
				`the package's panel entry offers no "Send a message"; its actions: ${JSON.stringify(offered)}`,
			);
		});
		await action.click();
		await ui.ndv.waitFor();
		await ui.parameterInput('resource').waitFor();
	}

	it(
		'a: the package entry of the nodes panel lists at least 25 actions, grouped by resource',
		{ tags: ['every-line'] },
		async () => {
			pictureOnFailure('a-nodes-panel');
			const ui = await openScratchWorkflow();
			await openPackageEntry(ui);
			const header = (await ui.categoryHeader('Actions').innerText()).trim();
			const count = Number(/\((\d+)\)/.exec(header)?.[1] ?? 0);
			// The panel renders long lists a few rows per frame: read them once they stop growing.
			const actionsSection = ui.categoryHeader('Actions').locator('xpath=..');
			const actions = await settledTexts(
				actionsSection.locator(
					`${ui.byTestId('item-iterator-item')}[data-keyboard-nav-type="action"]`,
				),
			);
			// Resource group headings are the panel's label rows ("Message Actions", "Chat Actions", ...).
			const labels = await settledTexts(
				actionsSection.locator(
					`${ui.byTestId('item-iterator-item')}:not([data-keyboard-nav-type])`,
				),
			);

			// A tall picture of the panel down to the end of its actions, so the README can show the groups.
			await page.setViewportSize({ width: 1440, height: 2400 });
			const panel = await ui.nodeCreator.boundingBox();
			const section = await actionsSection.boundingBox();
			if (panel && section) {
				await screenshot(page, 'a-nodes-panel-actions', {
					x: panel.x,
					y: 0,
					width: panel.width,
					height: Math.min(2400, Math.ceil(section.y + section.height + 16)),
				});
			}
			await page.setViewportSize({ width: 1440, height: 900 });

			expect(count, `the panel's header reads "${header}"`).toBeGreaterThanOrEqual(25);
			expect(actions.length).toBe(count);
			const groups = labels.map((label) => label.trim().toLowerCase());
			expect(groups, `resource groups in the panel: ${JSON.stringify(labels)}`).toEqual(
				expect.arrayContaining(['message actions', 'chat actions']),
			);
			expect(groups.length).toBeGreaterThanOrEqual(5);
		},
	);

	it('b: searching "send message" in the nodes panel offers "Send a message"', async () => {
		pictureOnFailure('b-search');
		const ui = await openScratchWorkflow();
		await searchNodesPanel(ui, 'send message');
		// n8n's search finds nodes (by name and codex alias); the node's entry then offers its actions.
		const entry = ui.nodeCreatorItem(PACKAGE_ENTRY).first();
		const noResults = ui.nodeCreator.locator(ui.byTestId('node-creator-no-results'));
		await entry.or(noResults).first().waitFor();
		const results = await ui.nodeCreator
			.locator(
				`${ui.byTestId('item-iterator-item')}[data-keyboard-nav-type="node"] ${ui.byTestId('node-creator-item-name')}`,
			)
			.allInnerTexts();
		await screenshot(page, 'b-search-send-message-results');
		expect(results, 'nodes the panel lists for "send message"').toContain(PACKAGE_ENTRY);

		await entry.click();
		await ui.categoryHeader('Actions').waitFor();
		const sendMessage = ui.actionItem('Send a message');
		await sendMessage.waitFor();
		await sendMessage.scrollIntoViewIfNeeded();
		await screenshot(page, 'b-search-send-message-actions');
		await expect(sendMessage.isVisible()).resolves.toBe(true);
	});

	it('c: adding "Send a message" names the node so and shows Channel, To and Text without opening Additional Fields', async () => {
		pictureOnFailure('c-send-a-message');
		const ui = await openScratchWorkflow();
		await addSendMessage(ui);
		const labels = await visibleParameterLabels(ui.parameters);
		await screenshot(page, 'c-send-a-message-parameters');

		await expect(ui.canvasNode('Send a message').count()).resolves.toBe(1);
		expect((await ui.ndvTitle.innerText()).trim()).toBe('Send a message');
		expect(labels, `visible parameters: ${JSON.stringify(labels)}`).toEqual(
			expect.arrayContaining(['Channel', 'To', 'Text']),
		);
	});

	it("d: changing the Resource resets the Operation to that resource's default, with no parameter warning", async () => {
		pictureOnFailure('d-resource-change');
		const resource = properties.find((property) => property.name === 'resource');
		const chat = resource?.options?.find((option) => option.name === 'Chat');
		expect(chat, 'a "Chat" option of the Resource parameter').toBeDefined();
		// The operation options the description shows for Chat, and the one it selects by default.
		const chatOperation = properties.find(
			(property) =>
				property.name === 'operation' &&
				property.options &&
				property.displayOptions?.show?.resource?.includes(chat?.value),
		);
		expect(
			chatOperation,
			'static Operation options for the Chat resource (not loaded at run time)',
		).toBeDefined();
		const expected = chatOperation?.options?.find(
			(option) => option.value === chatOperation.default,
		);
		expect(
			expected,
			`the default operation of Chat (${String(chatOperation?.default)}) among its options`,
		).toBeDefined();

		const ui = await openScratchWorkflow();
		await addSendMessage(ui);
		const operationInput = ui.parameterInput('operation').locator('input').first();
		const before = await operationInput.inputValue();
		await ui.parameterInput('resource').click();
		await page
			.getByRole('option')
			.filter({ has: page.getByText('Chat', { exact: true }) })
			.click();
		await expect
			.poll(() => ui.parameterInput('resource').locator('input').first().inputValue())
			.toBe('Chat');
		await expect.poll(() => operationInput.inputValue(), { timeout: 10_000 }).toBe(expected?.name);
		const operationItem = ui.parameters
			.locator(ui.byTestId('parameter-item'))
			.filter({ has: page.locator(ui.byTestId('parameter-input-operation')) });
		await screenshot(page, 'd-resource-changed-to-chat');

		expect(before, 'the operation "Send a message" starts with').not.toBe(expected?.name);
		await expect(operationItem.locator(ui.byTestId('parameter-issues')).count()).resolves.toBe(0);
		const resourceItem = ui.parameters
			.locator(ui.byTestId('parameter-item'))
			.filter({ has: page.locator(ui.byTestId('parameter-input-resource')) });
		await expect(resourceItem.locator(ui.byTestId('parameter-issues')).count()).resolves.toBe(0);
	});

	/** Names of the canvas nodes that carry n8n's issue marker, once the editor has settled. */
	async function nodesWithIssues(
		ui: ReturnType<typeof editor>,
		expectedNodes: number,
	): Promise<string[]> {
		await expect.poll(() => ui.canvasNodes.count(), { timeout: 30_000 }).toBe(expectedNodes);
		// Issues are computed once node types and credentials have loaded: let the editor's requests finish.
		await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
		return page
			.locator(`${ui.byTestId('canvas-node')}:has(${ui.byTestId('node-issues')})`)
			.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-node-name') ?? ''));
	}

	it(
		'e: the issue marker is found on a node that has a parameter issue (control for the example checks)',
		{ tags: ['every-line'] },
		async () => {
			pictureOnFailure('e-control');
			// An n8n core node with its required URL left empty: n8n marks it on the canvas.
			const workflow = await api.createWorkflow({
				name: `Issue marker control ${randomUUID().slice(0, 8)}`,
				nodes: [
					{
						id: randomUUID(),
						name: 'Start',
						type: 'n8n-nodes-base.manualTrigger',
						typeVersion: 1,
						position: [0, 0],
						parameters: {},
					},
					{
						id: randomUUID(),
						name: 'No URL',
						type: 'n8n-nodes-base.httpRequest',
						typeVersion: 4.2,
						position: [240, 0],
						parameters: { url: '' },
					},
				],
				connections: { Start: { main: [[{ node: 'No URL', type: 'main', index: 0 }]] } },
				settings: { executionOrder: 'v1' },
			});
			await page.goto(`${e2e().n8nUrl}/workflow/${workflow.id}`);
			expect(await nodesWithIssues(editor(page), 2)).toEqual(['No URL']);
		},
	);

	it.each(Object.keys(examples))(
		'e: the example workflow "%s" opens with no parameter warnings',
		{ tags: ['every-line'] },
		async (file) => {
			pictureOnFailure(`e-example-${file}`);
			const expectedNodes = examples[file].nodes.filter(
				(node) => node.type !== 'n8n-nodes-base.stickyNote',
			).length;
			await page.goto(`${e2e().n8nUrl}/workflow/${exampleIds[file]}`);
			const withIssues = await nodesWithIssues(editor(page), expectedNodes);
			await screenshot(page, `e-example-${file}`);
			expect(withIssues, 'nodes showing the issue marker').toEqual([]);
		},
	);

	it("f: the credential's Test succeeds in the credential dialog", async () => {
		pictureOnFailure('f-credential-test');
		const { ui, result } = await openCredentialDialog(credential.id);
		// "Retry" runs the same test again.
		const success = ui.credentialDialog.locator(
			ui.byTestId('credentials-config-container-test-success'),
		);
		expect(result).toEqual(expect.objectContaining({ status: 'OK' }));
		await success.waitFor();
		const retested = page.waitForResponse(isCredentialTest);
		const retry = success.getByRole('button').filter({ hasText: /^\s*Retry\s*$/ });
		await retry.click();
		const retest = await (await retested).json();
		// The button shows a spinner while testing, then fades its label back in.
		await expect.poll(() => retry.locator('[class*="loading-container"]').count()).toBe(0);
		await success.waitFor();
		await page.mouse.move(700, 860);
		await screenshot(page, 'f-credential-test-succeeded');

		expect(retest.data).toEqual(expect.objectContaining({ status: 'OK' }));
		expect(await success.innerText()).toContain('Connection tested successfully');
	});

	it("f2: a Base URL where nothing listens: the dialog shows what n8n says, and the Base URL's hint what it means", async () => {
		pictureOnFailure('f2-credential-test-refused');
		const refused = await upsertCredential(
			api,
			'Messaging Automation (wrong port)',
			sandboxCredentialData({ url: 'http://127.0.0.1:9', apiKey: e2e().keys.owner }),
		);
		const { ui, result } = await openCredentialDialog(refused.id);
		expect(result.status).toBe('Error');
		const banner = ui.credentialDialog.getByText(/Couldn.t connect with these settings/);
		await banner.waitFor();
		// n8n 2.x folds the reason away under "More details".
		const details = ui.credentialDialog.getByText('More details', { exact: true });
		if (await details.isVisible()) await details.click();
		await ui.credentialDialog.getByText(result.message, { exact: true }).waitFor();
		const hint = ui.credentialDialog.getByText(/^If Test shows ECONNREFUSED/);
		await hint.waitFor();
		// The test runs again when the dialog settles; the picture waits for Retry's label to be back.
		const retry = ui.credentialDialog.getByRole('button').filter({ hasText: /^\s*Retry\s*$/ });
		await expect.poll(() => retry.locator('[class*="loading-container"]').count()).toBe(0);
		await page.mouse.move(700, 860);
		await screenshot(page, 'f2-credential-test-refused');
		expect(await hint.innerText()).toContain('check the host, the port, and http:// or https://');
	});

	it('g: the trigger\'s entries in the nodes panel read as events ("On message received")', async () => {
		pictureOnFailure('g-trigger-entries');
		const workflow = await api.createWorkflow({
			name: `Trigger panel ${randomUUID().slice(0, 8)}`,
			nodes: [],
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		await page.goto(`${e2e().n8nUrl}/workflow/${workflow.id}`);
		const ui = editor(page);
		// An empty workflow's "Add first step" opens the panel of triggers.
		await page.locator(ui.byTestId('canvas-add-button')).first().click();
		await ui.nodeCreatorSearch.fill(PACKAGE_ENTRY);
		await ui.nodeCreatorItem(PACKAGE_ENTRY).first().click();
		await ui.categoryHeader('Triggers').waitFor();
		const triggers = await settledTexts(
			ui.nodeCreator.locator(
				`${ui.byTestId('item-iterator-item')}[data-keyboard-nav-type="action"]`,
			),
		);
		await screenshot(page, 'g-trigger-entries');
		expect(triggers).toEqual([
			'On channel connected',
			'On channel disconnected',
			'On message received',
			'On message sent',
			'On message status changed',
			'On test event',
		]);
	});

	it("h: the AI reply bot shows the trigger's grouping and history fields and the tool's Message Limit per Execution", async () => {
		pictureOnFailure('h-conversation-fields');
		const ui = editor(page);
		await page.goto(`${e2e().n8nUrl}/workflow/${exampleIds['ai-reply-bot']}`);
		await ui.canvasNode('On Incoming Messages').dblclick();
		await ui.parameters.waitFor();
		const triggerLabels = await visibleParameterLabels(ui.parameters);
		await screenshot(page, 'h-trigger-grouping-and-history');
		// A field's description is the tooltip of the (?) beside its label (shown while the label is hovered).
		const tooltipOf = async (label: string, opening: RegExp) => {
			const labelled = ui.parameters.locator('label.n8n-input-label').filter({ hasText: label });
			await labelled.hover();
			await labelled.locator('[data-icon="circle-help"]').hover();
			const tip = page.getByText(opening);
			await tip.waitFor();
			return tip;
		};
		const longestWaitTip = await tooltipOf(
			'Longest Wait',
			/^A person who keeps typing still gets an answer/,
		);
		// Shown above its label, that tooltip covers the Quiet Window's (?) until it closes.
		await page.mouse.move(1300, 800);
		await longestWaitTip.waitFor({ state: 'hidden' });
		const quietWindowTip = await tooltipOf(
			'Quiet Window',
			/^The run starts once the person has written nothing/,
		);
		await screenshot(page, 'h-quiet-window-tooltip');
		expect(await quietWindowTip.innerText()).toContain(
			'Keep it at 8 or less: above 8, every group of quick messages also leaves an empty execution about 30 seconds later (it needs no action). Nothing is lost if n8n restarts while a run waits.',
		);
		await page.keyboard.press('Escape');
		await ui.canvasNode('Reply in Chat').dblclick();
		await ui.parameters.waitFor();
		const toolLabels = await visibleParameterLabels(ui.parameters);
		await ui.parameterInput('agentSendLimit').scrollIntoViewIfNeeded();
		await screenshot(page, 'h-tool-message-limit');
		expect(triggerLabels).toEqual(
			expect.arrayContaining([
				'Group Quick Messages',
				'Quiet Window (Seconds)',
				'Longest Wait (Seconds)',
				'Include Conversation History',
			]),
		);
		expect(toolLabels).toEqual(expect.arrayContaining(['Message Limit per Execution']));
	});

	it("i: the AI reply bot's trigger shows Human Takeover in plain words and two labelled outputs", async () => {
		pictureOnFailure('i-human-takeover');
		const ui = editor(page);
		await page.goto(`${e2e().n8nUrl}/workflow/${exampleIds['ai-reply-bot']}`);
		const outputs = page.locator(
			`${ui.byTestId('canvas-node-output-handle')}[data-node-name="On Incoming Messages"]`,
		);
		await ui.canvasNode('On Incoming Messages').waitFor({ timeout: 45_000 });
		await expect.poll(() => outputs.count(), { timeout: 15_000 }).toBe(2);
		const outputLabels = (await outputs.allInnerTexts()).map((text) => text.trim());
		await screenshot(page, 'i-trigger-two-outputs');
		await ui.canvasNode('On Incoming Messages').dblclick();
		await ui.parameters.waitFor();
		await ui.parameterInput('resumeAfterHours').scrollIntoViewIfNeeded();
		const labels = await visibleParameterLabels(ui.parameters);
		await screenshot(page, 'i-trigger-human-takeover');
		expect(outputLabels).toEqual(['Bot', 'Paused Chats']);
		expect(labels).toEqual(
			expect.arrayContaining([
				'Human Takeover',
				'Pause Command',
				'Resume Command',
				'Hand-Over Words',
				'Resume After (Hours)',
			]),
		);
	});
	it('j: the refund approval asks with Answer in Chat: its rule under the field, the words without "ok"', async () => {
		pictureOnFailure('j-answer-in-chat');
		const ui = editor(page);
		await page.goto(`${e2e().n8nUrl}/workflow/${exampleIds['refund-approval']}`);
		await ui.canvasNode('Ask the Manager').dblclick();
		await ui.parameters.waitFor();
		await ui.parameterInput('approveWords').scrollIntoViewIfNeeded();
		const labels = await visibleParameterLabels(ui.parameters);
		await screenshot(page, 'j-answer-in-chat-fields');
		const approveWords = await ui
			.parameterInput('approveWords')
			.locator('input')
			.first()
			.inputValue();
		const labelled = ui.parameters
			.locator('label.n8n-input-label')
			.filter({ hasText: 'Answer in Chat' });
		await labelled.hover();
		await labelled.locator('[data-icon="circle-help"]').hover();
		const tip = page.getByText(/^Whether the person can also answer by writing in the chat/);
		await tip.waitFor();
		await screenshot(page, 'j-answer-in-chat-tooltip');
		expect(labels).toEqual(
			expect.arrayContaining([
				'Answer in Chat',
				'Approve Words',
				'Decline Words',
				'Who May Answer in a Group',
			]),
		);
		expect(approveWords.split(',').map((word) => word.trim())).not.toContain('ok');
		expect(await tip.innerText()).toContain(
			'A reply answers the newest question while your account has written nothing after it, or the question it quotes',
		);
	});

	// The Catch-Up node's errors as a person meets them (seen before only in engine tests): its test
	// run ("Fetch Test Event") with no trigger beside it and with a deactivated one, and n8n's Retry of
	// that failed test run, in the execution view, which names the same step left (R11-2).
	it("l: the Catch-Up node's test run names the step left (no trigger beside it, a deactivated one), and so does n8n's Retry of it in the execution view", async () => {
		pictureOnFailure('l-catch-up');
		const ui = editor(page);
		const toast = page.locator('.el-notification').filter({ hasText: 'Problem in node' });
		const shown = ui.ndv.locator(ui.byTestId('node-error-message'));
		/** The error the open node's panel shows, once shown, pictured; and n8n's toast. */
		const shownError = async (picture: string) => {
			await shown.waitFor({ timeout: 30_000 });
			await toast.first().waitFor();
			await screenshot(page, picture);
			const texts = {
				message: await shown.innerText(),
				description: await ui.ndv.locator(ui.byTestId('node-error-description')).innerText(),
				toast: await toast.first().innerText(),
			};
			await page.keyboard.press('Escape');
			await toast.first().locator('.el-notification__closeBtn').click();
			return texts;
		};
		/** The workflow opened in the editor, the Catch-Up node's panel open, its execute button clicked. */
		const testRun = async (trigger: 'none' | 'deactivated', picture: string) => {
			const workflow = await api.createWorkflow(
				catchUpWorkflow(`Catch-Up test run ${randomUUID().slice(0, 8)}`, credential, trigger),
			);
			await page.goto(`${e2e().n8nUrl}/workflow/${workflow.id}`);
			await ui.canvasNode('Catch-Up').dblclick();
			await ui.ndv.locator(ui.byTestId('node-execute-button')).first().click();
			return { workflowId: workflow.id, texts: await shownError(picture) };
		};
		const alone = await testRun('none', 'l-catch-up-test-run-no-trigger');
		const deactivated = await testRun('deactivated', 'l-catch-up-test-run-trigger-deactivated');

		// n8n's Retry of the failed test run above runs the node again in mode 'retry', on that
		// workflow: no poll is behind it, so it names the step left too (R11-2).
		const [tested] = await api.listExecutions(alone.workflowId);
		const retried = await api.request('POST', `/executions/${tested.id}/retry`, {
			loadWorkflow: false,
		});
		await page.goto(`${e2e().n8nUrl}/workflow/${alone.workflowId}/executions/${retried.id}`);
		await toast.first().waitFor({ timeout: 30_000 });
		await screenshot(page, 'l-catch-up-retry-of-test-run');
		const executionToast = await toast.first().innerText();
		await ui.canvasNode('Catch-Up').dblclick();
		const execution = await shownError('l-catch-up-retry-of-test-run-node');

		expect(alone.texts.message).toBe('Connect a Messaging Automation Trigger to "Reply" too');
		expect(alone.texts.toast).toContain(alone.texts.message);
		expect(deactivated.texts.message).toBe(
			'Activate the trigger "Trigger" (it is deactivated), then publish the workflow (on n8n 1.x: activate it)',
		);
		expect(deactivated.texts.toast).toContain(deactivated.texts.message);
		for (const { texts } of [alone, deactivated])
			expect(texts.description).toMatch(/^This node runs the messages /);
		expect(retried.status).toBe('error');
		expect(execution.message).toBe(alone.texts.message);
		expect(executionToast).toContain(execution.message);
	});

	it("l: the Catch-Up node beside a trigger with Human Takeover on shows the trigger's two outputs, connected alike, and its notice says where Paused Chats goes", async () => {
		pictureOnFailure('l-catch-up-two-outputs');
		const ui = editor(page);
		const workflow = await api.createWorkflow(
			catchUpTakeoverWorkflow(`Catch-Up two outputs ${randomUUID().slice(0, 8)}`, credential),
		);
		await page.goto(`${e2e().n8nUrl}/workflow/${workflow.id}`);
		const outputsOf = (node: string) =>
			page.locator(`${ui.byTestId('canvas-node-output-handle')}[data-node-name="${node}"]`);
		await ui.canvasNode('Catch-Up').waitFor({ timeout: 45_000 });
		await expect.poll(() => outputsOf('Trigger').count(), { timeout: 15_000 }).toBe(2);
		const labelsOf = async (node: string) =>
			(await outputsOf(node).allInnerTexts()).map((text) => text.trim());
		const catchUpLabels = await labelsOf('Catch-Up');
		const triggerLabels = await labelsOf('Trigger');
		await screenshot(page, 'l-catch-up-two-outputs');
		await ui.canvasNode('Catch-Up').dblclick();
		await ui.parameters.waitFor();
		const notice = ui.parameters.getByText(/^Runs the messages the Messaging Automation Trigger/);
		await notice.waitFor();
		await screenshot(page, 'l-catch-up-notice');
		const noticeText = await notice.innerText();
		await page.keyboard.press('Escape');

		expect(catchUpLabels).toEqual(['Bot', 'Paused Chats']);
		expect(triggerLabels).toEqual(catchUpLabels);
		expect(noticeText).toContain(
			"connect this node's Bot output to the trigger's next node, and publish the workflow (on n8n 1.x, activate it). Paused Chats is for the trigger's Human Takeover: without it, nothing comes out there; with it, connect Bot and Paused Chats where the trigger's Bot and Paused Chats go.",
		);
	});
});
