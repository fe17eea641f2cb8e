/**
 * Review of issue 43d (branch review-43de): files are downloaded in the run's first step, after
 * the run claim (runAttachments.ts withRunFiles). A download the service refuses leaves a reason in
 * the item and the run goes on. The delivery was already answered 200 by n8n (the run was recorded)
 * and the message claimed, so nothing sends it again: a failure of n8n's binary data store (disk
 * full, S3 down) must leave a reason too, never throw the message away with the step.
 */
import { BinaryDataService } from 'n8n-core';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { DEMO, type SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { startTriggerHost, useSandbox, waitFor } from '../fixtures';

let sandbox: SandboxHandle;
useSandbox((started) => {
	sandbox = started;
});
let trigger: N8nWebhookHost;

afterEach(async () => {
	vi.restoreAllMocks();
	await trigger?.stop();
});

/** The texts the trigger's step passed on to the workflow, over every run. */
const passedOn = () =>
	trigger.executions
		.flatMap((execution) => execution.items)
		.map((item) => JSON.stringify(item.json));

async function sendPhoto(storeFails: boolean): Promise<void> {
	trigger = await startTriggerHost({
		baseUrl: sandbox.url,
		apiKey: sandbox.keys.owner,
		parameters: { events: ['message.received'], options: { downloadAttachments: true } } as never,
	});
	await trigger.activate('production');
	if (storeFails)
		vi.spyOn(BinaryDataService.prototype, 'store').mockRejectedValueOnce(
			new Error('binary data store unavailable'),
		);
	const result = sandbox.inject.injectMessage({
		from: DEMO.alice,
		text: 'photo of the receipt',
		attachment: { fileName: 'receipt.png', mimeType: 'image/png', content: 'PNG receipt bytes' },
	});
	expect(result.saved).toBe(true);
	await waitFor(() => trigger.executions.length === 1);
	await trigger.settled();
}

describe('review 43de: files downloaded in the run', () => {
	it('control: the file downloads, the message runs with it', async () => {
		await sendPhoto(false);
		expect(passedOn().some((json) => json.includes('photo of the receipt'))).toBe(true);
	});

	it("R43de-3: n8n's binary data store failing while the run's first step stores the file: the run was recorded and answered 200, so the message goes on without its file, saying why", async () => {
		await sendPhoto(true);
		// The message's delivery (the endpoint's webhook.test event is answered as ignored).
		const delivery = trigger.requests.filter((request) => !('ignored' in (request.body as object)));
		expect(delivery).toMatchObject([{ status: 200, answeredBy: 'n8n' }]);
		const item = passedOn().find((json) => json.includes('photo of the receipt'));
		expect(item).toContain('n8n could not store the file (binary data store unavailable)');
	});
});
