import { randomInt } from 'node:crypto';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionError, nodeOutput, type N8nRestApi } from '../support/n8nRestApi.mjs';
import { findChromium, screenshot } from './support/browser.mjs';
import { e2e, n8nApi, sandboxCredential, unique } from './support/context.mjs';
import { askAndWait } from './support/sendAndWait.mjs';

// Message › Send and Wait for Response in a real n8n (issue 12's acceptance): the question goes out
// through the sandbox, the execution waits, and only a person's answer through its links resumes it.

const PHONE = '4915112345678';
const BROWSER_AGENT =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const PREVIEW_AGENT = 'WhatsApp/2.24.6.77 A';

let api: N8nRestApi;
let credential: Awaited<ReturnType<typeof sandboxCredential>>;
let browser: Browser | undefined;
const executablePath = findChromium();

beforeAll(async () => {
	api = await n8nApi();
	credential = await sandboxCredential(api);
	if (executablePath)
		browser = await chromium.launch({
			executablePath,
			headless: true,
			args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
		});
});

afterAll(async () => {
	await browser?.close();
});

/** Runs a workflow whose only action asks `message`; resolves once it waits, with the question as sent. */
async function ask(parameters: Record<string, unknown>) {
	// A readable question (it shows on the pages' screenshots) that no other test sends.
	const message = `May we refund order ${randomInt(100_000, 999_999)}?`;
	const { executionId, waiting, sent } = await askAndWait(api, credential, 'e2e send and wait', {
		phoneNumber: PHONE,
		message,
		...parameters,
	});
	const links = Object.fromEntries(
		[...sent.text.matchAll(/^(.+): (http\S+)$/gm)].map(([, label, url]) => [label, url]),
	) as Record<string, string>;
	return { executionId, waiting, sent, links };
}

async function finished(executionId: string) {
	const execution = await api.waitForExecution(executionId, 100_000);
	expect(executionError(execution)).toBeUndefined();
	return nodeOutput(execution, 'Action')?.[0] as {
		data: Record<string, unknown>;
		messageId?: string;
	};
}

describe('Send and Wait for Response in a real n8n', () => {
	it(
		"approval: a link preview or curl does not resume and is told to use a browser; a person's click on Approve does",
		{ tags: ['every-line'] },
		async () => {
			const { executionId, links, sent } = await ask({
				approvalOptions: { values: { approvalType: 'double' } },
			});
			expect(Object.keys(links)).toEqual(['Approve', 'Decline']);

			// Not a browser (a chat app's previewer, curl, no agent at all), or not a GET: nothing is
			// recorded, and the answer says what to do instead of an empty 200.
			for (const [agent, method] of [
				[PREVIEW_AGENT, 'GET'],
				['curl/8.5.0', 'GET'],
				['', 'GET'],
				[BROWSER_AGENT, 'POST'],
			]) {
				const refused = await fetch(links.Approve, { method, headers: { 'user-agent': agent } });
				expect({ agent, method, status: refused.status }).toEqual({ agent, method, status: 200 });
				const body = await refused.text();
				expect(body).toContain('<title>Open this link in a browser to answer</title>');
				expect(body).toContain('Nothing was recorded.');
			}
			await new Promise((resolve) => setTimeout(resolve, 1_000));
			expect((await api.getExecution(executionId)).status).toBe('waiting');

			const click = await fetch(links.Approve, { headers: { 'user-agent': BROWSER_AGENT } });
			expect(click.status).toBe(200);
			expect(await click.text()).toContain('Got it, thanks');
			const output = await finished(executionId);
			expect(output.data).toMatchObject({ approved: true, respondedAt: expect.any(String) });
			expect(output.messageId).toBe(sent.message_id);
		},
	);

	it('approval: Decline resumes with approved false', async () => {
		const { executionId, links } = await ask({
			approvalOptions: { values: { approvalType: 'double', disapproveLabel: 'No thanks' } },
		});
		await fetch(links['No thanks'], { headers: { 'user-agent': BROWSER_AGENT } });
		expect((await finished(executionId)).data).toMatchObject({ approved: false });
	});

	it('a wait limit resumes without an answer, with a timed-out result', async () => {
		const limit = {
			limitWaitTime: {
				values: { limitType: 'afterTimeInterval', resumeAmount: 0.05, resumeUnit: 'minutes' },
			},
		};
		const { executionId } = await ask({ options: limit });
		const output = await finished(executionId);
		expect(output.data).toMatchObject({ timedOut: true, approved: false });
	});

	it('free text: the link opens a page; the answer typed there comes through', async () => {
		const { executionId, links } = await ask({
			responseType: 'freeText',
			options: { messageButtonLabel: 'Answer' },
		});
		const answer = unique('Refund half of it');
		await answerInBrowser(links.Answer, 'send-and-wait-free-text', async (page) => {
			await page.locator('textarea[name="field-0"]').fill(answer);
		});
		expect((await finished(executionId)).data).toMatchObject({ text: answer });
	});

	it('custom form: the fields defined in the node come through by label', async () => {
		const formFields = {
			values: [
				{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true },
				{
					fieldLabel: 'Reason',
					fieldType: 'dropdown',
					fieldOptions: 'Damaged, Late, Other',
					requiredField: true,
				},
			],
		};
		const { executionId, links } = await ask({
			responseType: 'customForm',
			formFields,
			options: { responseFormTitle: 'Refund' },
		});
		await answerInBrowser(links.Respond, 'send-and-wait-custom-form', async (page) => {
			await page.locator('input[name="field-0"]').fill('25');
			await page.locator('select[name="field-1"]').selectOption('Late');
		});
		expect((await finished(executionId)).data).toMatchObject({ Amount: 25, Reason: 'Late' });
	});
});

/** Opens `url` as a person would, fills the page, saves a screenshot, and submits it. */
async function answerInBrowser(
	url: string,
	name: string,
	fill: (page: import('playwright-core').Page) => Promise<void>,
): Promise<void> {
	if (!browser) {
		// Without a browser (see NO_BROWSER_REASON), the page's form is posted as a browser posts it.
		const page = await fetch(url, { headers: { 'user-agent': BROWSER_AGENT } });
		expect(await page.text()).toContain('<form method="post"');
		throw new Error(`no Chromium to answer ${name}: apt-get install chromium`);
	}
	const context = await browser.newContext({
		viewport: { width: 720, height: 760 },
		userAgent: BROWSER_AGENT,
	});
	const page = await context.newPage();
	try {
		await page.goto(url);
		await fill(page);
		if (e2e().mode === 'regular') await screenshot(page, name);
		await Promise.all([
			page.waitForLoadState('load'),
			page.locator('button[type="submit"]').click(),
		]);
		await page.getByText('Got it, thanks').waitFor({ timeout: 20_000 });
	} finally {
		await context.close();
	}
}
