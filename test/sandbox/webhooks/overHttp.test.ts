import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startSandbox, type SandboxHandle } from '../index';
import { matchingSignatures, startReceiver, type Receiver } from './testReceiver';
import { envelopeOf } from './testHarness';

let sandbox: SandboxHandle;
let receiver: Receiver;
beforeAll(async () => {
	sandbox = await startSandbox({ seed: 1 });
	receiver = await startReceiver();
});
afterAll(async () => {
	await sandbox.stop();
	await receiver.close();
});

async function call(method: string, path: string, body?: unknown) {
	const response = await fetch(`${sandbox.url}/api/v1/webhooks${path}`, {
		method,
		headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return {
		status: response.status,
		requestId: response.headers.get('x-request-id'),
		body: (await response.json()) as Record<string, unknown>,
	};
}

describe('webhook management through the sandbox server', () => {
	it('manages an endpoint and delivers a capped, signed event end to end', async () => {
		const bad = await call('POST', '', {
			url: receiver.url,
			event_types: ['message.received'],
			active: true,
		});
		expect(bad).toMatchObject({
			status: 400,
			body: { error: { code: 'invalid_input', field: 'active' } },
		});
		expect(bad.requestId).toMatch(/^req_/);

		const created = await call('POST', '', {
			url: receiver.url,
			event_types: ['message.received'],
		});
		expect(created.status).toBe(200);
		const { id, secret } = created.body as { id: string; secret: string };
		await receiver.waitFor(1);

		sandbox.inject.injectMessage({
			from: { phone: DEMO.alice.phone, name: 'Alice' },
			text: 'ü'.repeat(200_000),
		});
		const [, request] = await receiver.waitFor(2);
		expect(request.body.length).toBeLessThanOrEqual(256 * 1024);
		expect(envelopeOf(request)).toMatchObject({
			type: 'message.received',
			data: { message: { text_truncated: true } },
		});
		expect(matchingSignatures(request, [secret])).toBe(1);

		const listed = await call('GET', `/${id}/deliveries`);
		const delivery = (listed.body.deliveries as { id: string; event_id: string }[]).find(
			(d) => d.event_id === envelopeOf(request).id,
		);
		expect(delivery).toBeDefined();
		const resent = await call('POST', `/${id}/deliveries/${delivery?.id}/resend`, {});
		expect(resent).toMatchObject({
			status: 200,
			body: { delivery_id: delivery?.id, status: 'queued' },
		});
		const [, , again] = await receiver.waitFor(3);
		expect(again.headers['webhook-id']).toBe(request.headers['webhook-id']);

		expect(await call('DELETE', `/${id}`)).toMatchObject({
			status: 200,
			body: { id, deleted: true },
		});
		expect(await call('GET', `/${id}`)).toMatchObject({
			status: 404,
			body: { error: { code: 'not_found' } },
		});
	});
});
