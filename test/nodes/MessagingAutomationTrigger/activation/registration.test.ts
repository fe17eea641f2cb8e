import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { MessagingAutomationApi } from '../../../../credentials/MessagingAutomationApi.credentials';
import { startScriptedServer } from '../../../support/scriptedServer';

import type { SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { startRefusingProxy, startTriggerHost, useSandbox, type RefusingProxy } from '../fixtures';

let sandbox: SandboxHandle;
useSandbox((started) => {
	sandbox = started;
});
const hosts: N8nWebhookHost[] = [];

afterEach(async () => {
	await Promise.all(hosts.splice(0).map(async (host) => await host.stop()));
});

async function host(
	options: { apiKey?: string; baseUrl?: string; parameters?: Record<string, unknown> } = {},
) {
	const started = await startTriggerHost({
		baseUrl: options.baseUrl ?? sandbox.url,
		apiKey: options.apiKey ?? sandbox.keys.owner,
		parameters: (options.parameters ?? { events: ['message.received', 'message.sent'] }) as never,
	});
	hosts.push(started);
	return started;
}

/** An endpoint made by hand, as in the dashboard. */
async function createEndpoint(url: string): Promise<{ id: string; secret: string }> {
	const response = await fetch(`${sandbox.url}/api/v1/webhooks`, {
		method: 'POST',
		headers: {
			authorization: `Bearer ${sandbox.keys.owner}`,
			'content-type': 'application/json',
			'idempotency-key': `manual-${url.length}-${Date.now()}`,
		},
		body: JSON.stringify({ url, event_types: ['message.received'] }),
	});
	return (await response.json()) as { id: string; secret: string };
}

/** Endpoints the service still lists (every status but deleted). */
const live = () => sandbox.webhooks.endpoints().filter((endpoint) => endpoint.status !== 'deleted');
const liveFor = (url: string) => live().filter((endpoint) => endpoint.url === url);

describe('trigger registration against the sandbox', () => {
	it('activation creates one endpoint with the webhook URL and the selected events, and stores its secret', async () => {
		const trigger = await host();
		await trigger.activate('production');

		const [endpoint] = liveFor(trigger.url('production'));
		expect(live()).toHaveLength(1);
		expect(endpoint).toMatchObject({
			status: 'active',
			eventTypes: ['message.received', 'message.sent'],
		});
		expect(trigger.url('production')).toMatch(
			/^http:\/\/127\.0\.0\.1:\d+\/webhook\/[0-9a-f-]{36}\/webhook$/,
		);
		const stored = (
			trigger.savedStaticData['node:Trigger'] as {
				endpoints: Record<string, { id: string; secret: string }>;
			}
		).endpoints[trigger.url('production')];
		expect(stored).toMatchObject({ id: endpoint.id, secret: endpoint.secret });
	});

	it('checkExists confirms the endpoint, and reports false once it is gone', async () => {
		const trigger = await host();
		await trigger.activate('production');
		expect(await trigger.checkExists('production')).toBe(true);

		const [endpoint] = live();
		await fetch(`${sandbox.url}/api/v1/webhooks/${endpoint.id}`, {
			method: 'DELETE',
			headers: {
				authorization: `Bearer ${sandbox.keys.owner}`,
				'idempotency-key': 'manual-delete-1',
			},
		});
		expect(await trigger.checkExists('production')).toBe(false);
	});

	it('deactivation deletes the endpoint and clears it from static data', async () => {
		const trigger = await host();
		await trigger.activate('production');
		await trigger.deactivate('production');

		expect(live()).toHaveLength(0);
		expect(sandbox.webhooks.endpoints().map((endpoint) => endpoint.status)).toEqual(['deleted']);
		expect(trigger.savedStaticData['node:Trigger']).toMatchObject({ endpoints: {}, orphans: [] });
	});

	it('re-activation (changed events, lost static data) never leaves an orphan', async () => {
		const trigger = await host();
		await trigger.activate('production');
		// n8n restarts after the events were edited: checkExists sees a mismatch and create replaces it.
		trigger.setParameters({ events: ['message.status'] });
		expect(await trigger.checkExists('production')).toBe(false);
		await trigger.activate('production');
		expect(live()).toHaveLength(1);
		expect(live()[0].eventTypes).toEqual(['message.status']);

		// Static data lost (crash before saving): the endpoint listed for this URL is replaced.
		trigger.savedStaticData = {};
		await trigger.activate('production');
		expect(liveFor(trigger.url('production'))).toHaveLength(1);
		expect(await trigger.checkExists('production')).toBe(true);
	});

	it('replaces the endpoint of an old webhook address (WEBHOOK_URL changed)', async () => {
		const trigger = await host();
		const oldUrl = 'https://old-address.invalid/webhook/abc/webhook';
		const old = await createEndpoint(oldUrl);
		trigger.savedStaticData = {
			'node:Trigger': {
				endpoints: {
					[oldUrl]: {
						id: old.id,
						url: oldUrl,
						secret: old.secret,
						eventTypes: ['message.received', 'message.sent'],
						test: false,
					},
				},
			},
		};

		expect(await trigger.checkExists('production')).toBe(false);
		await trigger.activate('production');
		expect(live().map((endpoint) => endpoint.url)).toEqual([trigger.url('production')]);
		expect(
			Object.keys((trigger.savedStaticData['node:Trigger'] as { endpoints: object }).endpoints),
		).toEqual([trigger.url('production')]);
	});

	it('keeps test and production endpoints side by side, each removed on its own', async () => {
		const trigger = await host();
		await trigger.activate('production');
		await trigger.activate('test');

		expect(
			live()
				.map((endpoint) => endpoint.url)
				.sort(),
		).toEqual([trigger.url('production'), trigger.url('test')].sort());
		expect(await trigger.checkExists('production')).toBe(true);

		await trigger.deactivate('test');
		expect(live().map((endpoint) => endpoint.url)).toEqual([trigger.url('production')]);
		expect(await trigger.checkExists('production')).toBe(true);
	});

	it('names the ten-endpoint limit and the endpoints holding it', async () => {
		const others = await Promise.all(Array.from({ length: 10 }, async () => await host()));
		for (const other of others) await other.activate('production');
		const trigger = await host();

		const failure = await trigger
			.activate('production')
			.catch((error: Error & { description?: string }) => error);
		expect(failure).toBeInstanceOf(Error);
		expect((failure as Error).message).toBe(
			'The account already has the maximum of ten webhook endpoints',
		);
		expect((failure as { description?: string }).description).toContain(
			others[0].url('production'),
		);
		expect(live()).toHaveLength(10);
	});

	it('says the key lacks the messenger.webhooks:manage scope', async () => {
		const trigger = await host({ apiKey: sandbox.keys.noWebhooks });
		await expect(trigger.activate('production')).rejects.toThrow(
			'The API key is not allowed to do this, or the account has not given inbox storage consent. It needs the scope "messenger.webhooks:manage". Add the scope to the key (or give consent) in the dashboard, then try again.',
		);
		expect(live()).toHaveLength(0);
	});

	it('says the account needs the top plan', async () => {
		const trigger = await host({ apiKey: sandbox.keys.lowPlan });
		const failure = (await trigger
			.activate('production')
			.catch((error: unknown) => error)) as Error & { description?: string };
		// Word for word what the action node and the credential test say for this cause.
		expect(failure.message).toBe(
			'API keys and webhooks need the highest paid plan. Upgrade the account at https://messaging-automation.example/pricing, then try again.',
		);
		expect(failure.description).toMatch(/^Service said: /);
	});

	it('says the key was rejected, once, as the action node and the credential test do', async () => {
		const trigger = await host({ apiKey: sandbox.keys.revoked });
		const failure = (await trigger
			.activate('production')
			.catch((error: unknown) => error)) as Error & { description?: string };
		expect(failure.message).toBe(
			new MessagingAutomationApi().test.rules?.find(
				(rule) => rule.type === 'responseCode' && rule.properties.value === 401,
			)?.properties.message,
		);
		expect(failure.description).toBe('Service said: The API key is invalid or revoked.');
	});

	it('says in words, naming the Base URL, when nothing listens there', async () => {
		const trigger = await host({ baseUrl: 'http://127.0.0.1:9' });
		const failure = (await trigger
			.activate('production')
			.catch((error: unknown) => error)) as Error & { description?: string };
		expect(failure.message).toBe(
			"Nothing at http://127.0.0.1:9 accepted the connection (connection refused). Check the host and port of the credential's Base URL, and that the service runs there. Nothing reached the service.",
		);
		expect(failure.description).toBe(
			'This happened during listing webhook endpoints (ECONNREFUSED).',
		);
	});

	it('a Base URL that is not the API (a 404 page) says so, as the credential test does', async () => {
		const site = await startScriptedServer();
		site.script([{ status: 404, body: '<html>Not Found</html>' }]);
		try {
			const trigger = await host({ baseUrl: site.url });
			const failure = (await trigger
				.activate('production')
				.catch((error: unknown) => error)) as Error & { description?: string };
			expect(failure.message).toBe(
				new MessagingAutomationApi().test.rules?.find(
					(rule) => rule.type === 'responseCode' && rule.properties.value === 404,
				)?.properties.message,
			);
			expect(failure.description).toMatch(/^If the Base URL is right, the service does not offer/);
		} finally {
			await site.stop();
		}
	});

	it('registers nothing in dashboard mode', async () => {
		const trigger = await host({
			parameters: {
				registration: 'dashboard',
				signingSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
			},
		});
		await trigger.activate('production');
		expect(await trigger.checkExists('production')).toBe(true);
		await trigger.deactivate('production');
		expect(sandbox.webhooks.endpoints()).toHaveLength(0);
	});

	it('switching to dashboard mode removes the endpoint registered before', async () => {
		const trigger = await host();
		await trigger.activate('production');
		trigger.setParameters({
			registration: 'dashboard',
			signingSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
		});
		expect(await trigger.checkExists('production')).toBe(false);
		await trigger.activate('production');
		expect(live()).toHaveLength(0);
		expect(await trigger.checkExists('production')).toBe(true);
	});
});

describe('trigger registration when the service refuses management calls', () => {
	let proxy: RefusingProxy;
	beforeEach(async () => {
		proxy = await startRefusingProxy(sandbox.url);
	});
	afterEach(async () => {
		await proxy.stop();
	});

	it('a refused delete keeps deactivation working, is reported, and is retried at the next activation', async () => {
		const trigger = await host({ baseUrl: proxy.url });
		await trigger.activate('production');
		proxy.refuse('DELETE', /^\/api\/v1\/webhooks\//, 405);

		await expect(trigger.deactivate('production')).resolves.toBeUndefined();
		const [endpoint] = live();
		expect(trigger.savedStaticData['node:Trigger']).toMatchObject({
			endpoints: {},
			orphans: [endpoint.id],
		});

		// Next activation, through a service that deletes again: the orphan goes first.
		trigger.setCredentials('messagingAutomationApi', {
			apiKey: sandbox.keys.owner,
			baseUrl: sandbox.url,
			authScheme: 'bearer',
		});
		await trigger.activate('production');
		expect(live().map((e) => e.id)).not.toContain(endpoint.id);
		expect(live()).toHaveLength(1);
		expect(trigger.savedStaticData['node:Trigger']).toMatchObject({ orphans: [] });
	});

	it('a refused listing falls back to the stored endpoint', async () => {
		const trigger = await host({ baseUrl: proxy.url });
		await trigger.activate('production');
		proxy.refuse('GET', /^\/api\/v1\/webhooks$/, 501);
		expect(await trigger.checkExists('production')).toBe(true);
		await trigger.activate('production');
		expect(live()).toHaveLength(1);
	});

	it('a refused create says the service does not offer registration and points to dashboard mode', async () => {
		proxy.refuse('POST', /^\/api\/v1\/webhooks$/, 405);
		const trigger = await host({ baseUrl: proxy.url });
		const failure = (await trigger
			.activate('production')
			.catch((error: unknown) => error)) as Error & { description?: string };
		expect(failure.message).toBe(
			'The service does not offer registering the webhook endpoint through the API (HTTP 405)',
		);
		expect(failure.description).toContain('Endpoint Created in the Dashboard');
	});
});
