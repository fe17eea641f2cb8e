import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { DEMO, type SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import {
	activeMessageTrigger,
	coreLogger,
	startRefusingProxy,
	startTriggerHost,
	useStoppedClock,
	waitFor,
} from '../fixtures';

/*
 * The stored endpoint found stopped when n8n activates the workflow again (its start after being
 * down, which runs checkExists and create without a deactivation): disabled by the service, or
 * paused by someone else. It is resumed, not silently replaced, and n8n's log says what happened.
 */

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;

useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);

const write = (text: string) => sandbox.inject.injectMessage({ from: DEMO.alice, text });
const texts = () =>
	trigger.executions.flatMap((execution) => execution.items.map((item) => item.json.text));
const endpoints = () => sandbox.webhooks.endpoints().map(({ id, status }) => ({ id, status }));
const warned = (spy: { mock: { calls: unknown[][] } }) =>
	spy.mock.calls.map(([line]) => String(line)).join('\n');

async function byHand(method: string, path: string) {
	const response = await fetch(`${sandbox.url}/api/v1/webhooks/${path}`, {
		method,
		headers: {
			authorization: `Bearer ${sandbox.keys.owner}`,
			'content-type': 'application/json',
			'idempotency-key': `by-hand-${Date.now()}`,
		},
		body: '{}',
	});
	expect(response.status).toBe(200);
}

describe('an endpoint the service disabled while the workflow was active', () => {
	it('is re-enabled at the next activation (the same endpoint), and the log says why and the last failure', async () => {
		trigger = await activeMessageTrigger(sandbox, {});
		const [endpoint] = endpoints();
		sandbox.webhooks.faults.exhaustNext(1);
		write('lost while n8n could not be reached');
		await waitFor(() => sandbox.webhooks.deliveries().some((d) => d.lastError !== null), 10_000);
		sandbox.webhooks.disable('consecutive_failures', endpoint.id);

		const warn = vi.spyOn(coreLogger(), 'warn');
		expect(await trigger.checkExists('production')).toBe(false);
		await trigger.activate('production', 'init');

		expect(endpoints()).toEqual([{ id: endpoint.id, status: 'active' }]);
		const log = warned(warn);
		warn.mockRestore();
		expect(log).toContain(
			`webhook endpoint ${endpoint.id} had been disabled by the service after 100 failed deliveries in a row over three days`,
		);
		expect(log).toContain('1 event not delivered (the newest after 1 attempt: no answer');
		expect(log).toContain("n8n's WEBHOOK_URL");
		expect(await trigger.checkExists('production')).toBe(true);

		write('after the restart');
		await waitFor(() => texts().length > 0, 10_000);
		expect(texts()).toEqual(['after the restart']);
	});

	it('fails the activation, naming the endpoint, when the service will not re-enable it', async () => {
		const proxy = await startRefusingProxy(sandbox.url);
		try {
			trigger = await startTriggerHost({
				baseUrl: proxy.url,
				apiKey: sandbox.keys.owner,
				parameters: { events: ['message.received'] },
			});
			await trigger.activate('production');
			const [endpoint] = endpoints();
			sandbox.webhooks.disable('gone', endpoint.id);
			proxy.refuse('POST', /\/resume$/, 422);

			const failed = await trigger.activate('production', 'init').then(
				() => undefined,
				(error: unknown) => error as Error & { description?: string },
			);
			expect(failed?.description).toContain(
				`resuming the webhook endpoint ${endpoint.id} (disabled)`,
			);
			expect(endpoints()).toEqual([{ id: endpoint.id, status: 'disabled' }]);
		} finally {
			await proxy.stop();
		}
	});
});

describe('an endpoint someone paused while the workflow was active', () => {
	it('is resumed at the next activation, and what the service kept queued meanwhile runs', async () => {
		trigger = await activeMessageTrigger(sandbox, {});
		const [endpoint] = endpoints();
		await byHand('POST', `${endpoint.id}/pause`);
		write('written while the endpoint was paused');

		const warn = vi.spyOn(coreLogger(), 'warn');
		await trigger.activate('production', 'init');
		const log = warned(warn);
		warn.mockRestore();

		expect(endpoints()).toEqual([{ id: endpoint.id, status: 'active' }]);
		expect(log).toContain(`webhook endpoint ${endpoint.id} was paused outside this workflow`);
		await waitFor(() => texts().length > 0, 10_000);
		expect(texts()).toEqual(['written while the endpoint was paused']);
		const stored = (trigger.savedStaticData['node:Trigger'] as { endpoints: IDataObject })
			.endpoints[trigger.url('production')];
		expect(stored).toMatchObject({ id: endpoint.id });
	});
});
