// Headless Chromium for the editor tests: Debian's `chromium` driven by playwright-core, which never
// downloads a browser of its own. The selectors are the data-test-id attributes of n8n 2.40.7's editor.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

export { findChromium, NO_BROWSER_REASON } from './chromium.mjs';

/**
 * Where the screenshots go, overwritten on every run: test/e2e/screenshots/ on the default n8n
 * (committed: the README shows some of them); run.mjs sends another n8n's to .cache/e2e/ instead.
 */
export const SCREENSHOT_DIR =
	process.env.E2E_SCREENSHOT_DIR ?? new URL('../screenshots/', import.meta.url).pathname;

/** One headless browser and page at 1440x900, with bounded default waits. */
export async function launchEditorBrowser(
	executablePath: string,
): Promise<{ browser: Browser; page: Page }> {
	const browser = await chromium.launch({
		executablePath,
		headless: true,
		// Root in CI containers: Chromium's sandbox needs user namespaces it may not get there.
		args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
	});
	const context = await browser.newContext({
		viewport: { width: 1440, height: 900 },
		deviceScaleFactor: 1,
	});
	const page = await context.newPage();
	page.setDefaultTimeout(20_000);
	page.setDefaultNavigationTimeout(45_000);
	return { browser, page };
}

/** Signs in through n8n's sign-in form and waits for the app to leave /signin. */
export async function signIn(
	page: Page,
	baseUrl: string,
	owner: { email: string; password: string },
): Promise<void> {
	await page.goto(`${baseUrl}/signin`);
	await page.locator('[data-test-id="emailOrLdapLoginId"] input').fill(owner.email);
	await page.locator('[data-test-id="password"] input').fill(owner.password);
	await page.locator('[data-test-id="form-submit-button"]').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
}

/** A PNG of the page (or of `clip`) in SCREENSHOT_DIR; returns its path. */
export async function screenshot(
	page: Page,
	name: string,
	clip?: { x: number; y: number; width: number; height: number },
): Promise<string> {
	mkdirSync(SCREENSHOT_DIR, { recursive: true });
	const path = join(SCREENSHOT_DIR, `${name}.png`);
	await page.screenshot({ path, clip, animations: 'disabled', caret: 'hide' });
	return path;
}

/** Locators of n8n's editor (data-test-id attributes of n8n 2.40.7). */
export function editor(page: Page) {
	const byTestId = (id: string) => `[data-test-id="${id}"]`;
	const nodeCreator = page.locator(byTestId('node-creator'));
	const ndv = page.locator(byTestId('ndv'));
	const parameters = ndv.locator(byTestId('node-parameters'));
	return {
		byTestId,
		canvasNodes: page.locator(byTestId('canvas-node')),
		canvasNode: (name: string) =>
			page.locator(`${byTestId('canvas-node')}[data-node-name="${name.replaceAll('"', '\\"')}"]`),
		/** The red issue marker n8n draws on a canvas node whose parameters or credentials have problems. */
		nodeIssues: page.locator(`${byTestId('canvas-node')} ${byTestId('node-issues')}`),
		openNodeCreatorButton: page.locator(byTestId('node-creator-plus-button')),
		nodeCreator,
		nodeCreatorSearch: nodeCreator.locator(byTestId('node-creator-search-bar')),
		/** Node and action entries of the panel (labels and categories excluded). */
		nodeCreatorItem: (name: string) =>
			nodeCreator
				.locator(`${byTestId('item-iterator-item')}[data-keyboard-nav-type="node"]`)
				.filter({
					has: page.locator(byTestId('node-creator-item-name')).getByText(name, { exact: true }),
				}),
		actionItems: nodeCreator.locator(
			`${byTestId('item-iterator-item')}[data-keyboard-nav-type="action"]`,
		),
		actionItem: (name: string) =>
			nodeCreator
				.locator(`${byTestId('item-iterator-item')}[data-keyboard-nav-type="action"]`)
				.filter({
					has: page.locator(byTestId('node-creator-item-name')).getByText(name, { exact: true }),
				}),
		/** "Actions (N)" / "Triggers (N)" headers of a node's actions view. */
		categoryHeader: (name: string) =>
			nodeCreator
				.locator(byTestId('node-creator-category-item'))
				.filter({ hasText: new RegExp(`^\\s*${name}\\b`) }),
		ndv,
		ndvTitle: ndv.locator(byTestId('node-title-container')),
		parameters,
		parameterInput: (name: string) =>
			parameters.locator(byTestId(`parameter-input-${name}`)).first(),
		parameterIssues: parameters.locator(byTestId('parameter-issues')),
		credentialDialog: page.locator(byTestId('credential-edit-dialog')),
	};
}

/** The visible parameter labels of the open node, in order, without the required-field asterisk. */
export async function visibleParameterLabels(parameters: Locator): Promise<string[]> {
	const labels = parameters.locator('label.n8n-input-label');
	const texts: string[] = [];
	for (const label of await labels.all()) {
		if (!(await label.isVisible())) continue;
		// The label's first line is its title; the Fixed/Expression switch shows on later lines on hover.
		const [title = ''] = (await label.innerText()).split('\n');
		texts.push(title.replace(/\*\s*$/, '').trim());
	}
	return texts;
}

/**
 * The texts of a lazily rendered list once it stops growing: n8n's panel renders long lists a few
 * items per animation frame, so a single read could see only the first ones.
 */
export async function settledTexts(
	items: Locator,
	{ quietMs = 400, timeoutMs = 10_000 } = {},
): Promise<string[]> {
	const deadline = Date.now() + timeoutMs;
	let last = await items.allInnerTexts();
	for (;;) {
		await new Promise((resolve) => setTimeout(resolve, quietMs));
		const now = await items.allInnerTexts();
		if (now.length === last.length || Date.now() > deadline) return now;
		last = now;
	}
}
