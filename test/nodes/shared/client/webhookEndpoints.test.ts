import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ScriptedServer, startScriptedServer } from '../../../support/scriptedServer';
import { testClient, type TestClient } from '../../../support/testClient';

let server: ScriptedServer;
let harness: TestClient;

beforeAll(async () => {
	server = await startScriptedServer([{ status: 200, body: {} }]);
	harness = testClient(server.url, 'mk_test_webhooks');
});
afterAll(async () => {
	await harness.close();
	await server.stop();
});

describe('webhook endpoint methods use the planned paths', () => {
	const cases: Array<[string, () => Promise<unknown>, string, string, unknown]> = [
		[
			'create',
			() =>
				harness.client.webhooks.create({
					url: 'https://h.test/x',
					event_types: ['message.received'],
				}),
			'POST',
			'/api/v1/webhooks',
			{ url: 'https://h.test/x', event_types: ['message.received'] },
		],
		['list', () => harness.client.webhooks.list(), 'GET', '/api/v1/webhooks', undefined],
		['get', () => harness.client.webhooks.get('we_1'), 'GET', '/api/v1/webhooks/we_1', undefined],
		[
			'update',
			() => harness.client.webhooks.update('we_1', { event_types: ['message.sent'] }),
			'PATCH',
			'/api/v1/webhooks/we_1',
			{ event_types: ['message.sent'] },
		],
		[
			'pause',
			() => harness.client.webhooks.pause('we_1'),
			'POST',
			'/api/v1/webhooks/we_1/pause',
			{},
		],
		[
			'resume',
			() => harness.client.webhooks.resume('we_1'),
			'POST',
			'/api/v1/webhooks/we_1/resume',
			{},
		],
		[
			'delete',
			() => harness.client.webhooks.delete('we_1'),
			'DELETE',
			'/api/v1/webhooks/we_1',
			undefined,
		],
		[
			'rotateSecret',
			() => harness.client.webhooks.rotateSecret('we_1'),
			'POST',
			'/api/v1/webhooks/we_1/rotate-secret',
			{},
		],
		[
			'listDeliveries',
			() => harness.client.webhooks.listDeliveries('we_1'),
			'GET',
			'/api/v1/webhooks/we_1/deliveries',
			undefined,
		],
		[
			'resendDelivery',
			() => harness.client.webhooks.resendDelivery('we_1', 'dl_2'),
			'POST',
			'/api/v1/webhooks/we_1/deliveries/dl_2/resend',
			{},
		],
	];

	it.each(cases)('%s', async (_name, call, method, path, body) => {
		server.requests.length = 0;
		await call();
		const [request] = server.requests;
		expect(request).toMatchObject({ method, path });
		expect(request.body).toEqual(body);
		expect(request.headers['idempotency-key'] !== undefined).toBe(method !== 'GET');
	});

	it('encodes ids and reuses a given key for create', async () => {
		server.requests.length = 0;
		await harness.client.webhooks.get('we/../x');
		expect(server.requests[0].path).toBe('/api/v1/webhooks/we%2F..%2Fx');
		await harness.client.webhooks.create(
			{ url: 'https://h.test/x', event_types: [] },
			'trigger-node-1:create',
		);
		expect(server.requests[1].headers['idempotency-key']).toBe('trigger-node-1:create');
	});
});
