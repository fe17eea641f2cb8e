import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { afterEach, describe, expect, it } from 'vitest';

import { DEMO, type SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import {
	activeMessageTrigger,
	longQuietGrouping,
	messageDeliveries,
	startRefusingProxy,
	startTriggerHost,
	useStoppedClock,
	waitFor,
	type RefusingProxy,
} from '../fixtures';

/*
 * The endpoint the trigger registered itself, kept through a deactivation or a save (n8n 1.x saves
 * an active workflow by deactivating and activating it) while it holds grouped deliveries: paused
 * rather than deleted, so the service's retries of the deliveries handed back run their bursts
 * once the workflow is active again, and resumed by the next activation rather than replaced. The
 * sandbox clock stands still and is moved by hand; the trigger's holds run on real time.
 */

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;
let proxy: RefusingProxy | undefined;

useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);
afterEach(async () => {
	await proxy?.stop();
	proxy = undefined;
});

function write(text: string) {
	const result = sandbox.inject.injectMessage({ from: DEMO.alice, text });
	expect(result.saved).toBe(true);
	return result.message as { id: string };
}

const attemptsOf = (id: string) =>
	messageDeliveries(sandbox, trigger).filter((attempt) => attempt.body?.includes(`"id":"${id}"`));
const runs = () =>
	trigger.executions
		.filter((execution) => execution.items.length > 0)
		.map((execution) => (execution.items[0].json.messages as IDataObject[]).map((m) => m.text));
/** Every endpoint the account ever had, deleted ones included: id and status. */
const everyEndpoint = () =>
	sandbox.webhooks.endpoints().map(({ id, status, eventTypes }) => ({ id, status, eventTypes }));
const stored = () =>
	(trigger.savedStaticData['node:Trigger'] as { endpoints: Record<string, IDataObject> }).endpoints[
		trigger.url('production')
	];

/**
 * Activates a grouping trigger and deactivates it the moment it holds a delivery; `legacy`: in a
 * webhook context without `getWebhookResourceUrl`, as n8n 1.x has.
 */
async function deactivatedWhileHolding(
	parameters: INodeParameters,
	{ baseUrl = sandbox.url, legacy = false } = {},
) {
	trigger = await startTriggerHost({ baseUrl, apiKey: sandbox.keys.owner, parameters });
	trigger.withoutResourceUrl = legacy;
	await trigger.activate('production');
	const [endpoint] = sandbox.webhooks.endpoints();
	const held = trigger.tookUp((body) => body.includes('typed while the workflow was saved'));
	const message = write('typed while the workflow was saved');
	await held;
	await trigger.deactivate('production');
	return { endpoint, message };
}

/** The service's retry of `message`'s handed-back delivery (30 s on), answered. */
async function retried(message: { id: string }) {
	sandbox.clock.advance(40_000);
	await waitFor(() => attemptsOf(message.id).length >= 2, 20_000);
	await trigger.settled();
	return attemptsOf(message.id).map((attempt) => attempt.statusCode);
}

describe('a save while a burst is held, automatic registration', () => {
	it('pauses the endpoint, resumes the same one, and the retry runs the burst once', async () => {
		const { endpoint, message } = await deactivatedWhileHolding(longQuietGrouping());
		expect(everyEndpoint()).toEqual([
			{ id: endpoint.id, status: 'paused', eventTypes: ['message.received'] },
		]);
		expect(stored()).toMatchObject({ id: endpoint.id, parked: true });
		await trigger.activate('production');

		expect(await retried(message)).toEqual([503, 200]);
		expect(runs()).toEqual([['typed while the workflow was saved']]);
		// No second endpoint was ever created, so nothing is delivered twice and nothing is left over.
		expect(everyEndpoint()).toEqual([
			{ id: endpoint.id, status: 'active', eventTypes: ['message.received'] },
		]);
		expect(stored()).toEqual(expect.not.objectContaining({ parked: expect.anything() as unknown }));
		expect(await trigger.checkExists('production')).toBe(true);
	});
});

describe('a save on n8n 1.x (no resource URL in the webhook context)', () => {
	it('releases the held delivery too, so the same endpoint is paused, resumed, and the retry runs the burst once', async () => {
		const { endpoint, message } = await deactivatedWhileHolding(longQuietGrouping(), {
			legacy: true,
		});
		await trigger.activate('production');

		expect(await retried(message)).toEqual([503, 200]);
		expect(runs()).toEqual([['typed while the workflow was saved']]);
		expect(everyEndpoint().map((e) => [e.id, e.status])).toEqual([[endpoint.id, 'active']]);
	});
});

describe('a deactivation after the held delivery went back at its deadline (a 12 s quiet window)', () => {
	it('keeps the retry paused while the workflow is off, and runs the burst once after reactivation', async () => {
		trigger = await activeMessageTrigger(sandbox, longQuietGrouping());
		const [endpoint] = sandbox.webhooks.endpoints();
		const message = write('still typing, then the workflow is deactivated');
		await waitFor(() => attemptsOf(message.id).length >= 1, 20_000);
		await trigger.deactivate('production');
		expect(trigger.executions).toHaveLength(0);

		// Due while the workflow is off: the paused endpoint keeps it queued instead of sending it.
		sandbox.clock.advance(40_000);
		expect(sandbox.webhooks.endpoints().map((e) => e.status)).toEqual(['paused']);
		const [delivery] = sandbox.webhooks
			.deliveries()
			.filter((record) => record.payload?.includes(message.id));
		expect(delivery).toMatchObject({ status: 'queued', attempts: 1 });

		await trigger.activate('production');
		await waitFor(() => attemptsOf(message.id).length >= 2, 20_000);
		await trigger.settled();
		expect(runs()).toEqual([['still typing, then the workflow is deactivated']]);
		expect(attemptsOf(message.id).map((attempt) => attempt.statusCode)).toEqual([503, 200]);
		expect(sandbox.webhooks.endpoints().map((e) => [e.id, e.status])).toEqual([
			[endpoint.id, 'active'],
		]);
	});
});

describe('the next activation of a parked endpoint', () => {
	it('resumes it with the events selected now (same endpoint, its events changed)', async () => {
		const { endpoint, message } = await deactivatedWhileHolding(longQuietGrouping());
		trigger.setParameters(longQuietGrouping({ events: ['message.received', 'message.sent'] }));
		await trigger.activate('production');
		expect(everyEndpoint()).toEqual([
			{ id: endpoint.id, status: 'active', eventTypes: ['message.received', 'message.sent'] },
		]);
		expect(stored()).toMatchObject({ eventTypes: ['message.received', 'message.sent'] });
		expect(await retried(message)).toEqual([503, 200]);
	});

	it('registers a new one when the parked one was deleted in the dashboard meanwhile', async () => {
		const { endpoint } = await deactivatedWhileHolding(longQuietGrouping());
		expect(stored()).toMatchObject({ id: endpoint.id, parked: true });
		await fetch(`${sandbox.url}/api/v1/webhooks/${endpoint.id}`, {
			method: 'DELETE',
			headers: { authorization: `Bearer ${sandbox.keys.owner}`, 'idempotency-key': 'by-hand-1' },
		});
		await trigger.activate('production');
		const live = sandbox.webhooks.endpoints().filter((e) => e.status !== 'deleted');
		expect(live).toHaveLength(1);
		expect(live[0].id).not.toBe(endpoint.id);
		expect(stored()).toMatchObject({ id: live[0].id, secret: live[0].secret });
	});

	it('deletes it when Registration is now Endpoint Created in the Dashboard', async () => {
		await deactivatedWhileHolding(longQuietGrouping());
		expect(sandbox.webhooks.endpoints().map((e) => e.status)).toEqual(['paused']);
		trigger.setParameters(
			longQuietGrouping({
				registration: 'dashboard',
				signingSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
			}),
		);
		await trigger.activate('production');
		expect(sandbox.webhooks.endpoints().map((e) => e.status)).toEqual(['deleted']);
	});

	it("survives n8n's clean-up after a failed activation (deleting again with nothing held keeps it)", async () => {
		const { endpoint, message } = await deactivatedWhileHolding(longQuietGrouping());
		await trigger.deactivate('production');
		expect(everyEndpoint().map((e) => [e.id, e.status])).toEqual([[endpoint.id, 'paused']]);
		await trigger.activate('production');
		expect(await retried(message)).toEqual([503, 200]);
		expect(runs()).toEqual([['typed while the workflow was saved']]);
	});
});

describe('a service that offers no pausing', () => {
	it('is asked to pause, refuses, and the endpoint is deleted as before', async () => {
		proxy = await startRefusingProxy(sandbox.url);
		proxy.refuse('POST', /^\/api\/v1\/webhooks\/[^/]+\/pause$/, 405);
		const { endpoint } = await deactivatedWhileHolding(longQuietGrouping(), { baseUrl: proxy.url });
		expect(proxy.seen).toContain(`POST /api/v1/webhooks/${endpoint.id}/pause`);
		expect(sandbox.webhooks.endpoints().map((e) => e.status)).toEqual(['deleted']);
		expect(stored()).toBeUndefined();
	});
});

describe('a service that refuses to list endpoints', () => {
	it('resumes the parked endpoint by the id stored with the workflow', async () => {
		proxy = await startRefusingProxy(sandbox.url);
		proxy.refuse('GET', /^\/api\/v1\/webhooks$/, 501);
		const { endpoint, message } = await deactivatedWhileHolding(longQuietGrouping(), {
			baseUrl: proxy.url,
		});
		await trigger.activate('production');
		expect(proxy.seen).toContain(`POST /api/v1/webhooks/${endpoint.id}/resume`);
		expect(everyEndpoint().map((e) => [e.id, e.status])).toEqual([[endpoint.id, 'active']]);
		expect(await retried(message)).toEqual([503, 200]);
	});
});
