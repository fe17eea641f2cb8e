import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../index';
import { newKey, START, useSandbox } from './harness';

/** A loopback webhook receiver that records what it gets. */
async function receiver() {
	const received: { headers: IncomingHttpHeaders; body: any }[] = [];
	const server = createServer((req, res) => {
		let text = '';
		req.on('data', (chunk: Buffer) => (text += chunk.toString()));
		req.on('end', () => {
			received.push({ headers: req.headers, body: JSON.parse(text) });
			res.writeHead(204).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
	return {
		url,
		received,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

async function until(check: () => boolean): Promise<void> {
	for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
	expect(check()).toBe(true);
}

describe('sandbox control API over HTTP', () => {
	const api = useSandbox();

	it('answers people reading it with curl in indented JSON ending with a newline; the service API stays compact', async () => {
		await api.control('POST', '/inject/message', {
			from: { phone: DEMO.alice.phone, name: 'Alice' },
			text: 'Any news?',
		});
		const control = await (await fetch(`${api.sandbox.url}/__sandbox/state`)).text();
		expect(control.endsWith('}\n')).toBe(true);
		expect(control).toMatch(/^\{\n {2}"/);
		const service = await (
			await fetch(`${api.sandbox.url}/api/v1/me`, {
				headers: { authorization: `Bearer ${api.sandbox.keys.owner}` },
			})
		).text();
		expect(service).not.toContain('\n');
	});

	it('injects an incoming message, lists calls, sends and effects, and resets', async () => {
		const injected = await api.control('POST', '/inject/message', {
			from: { phone: DEMO.alice.phone, name: 'Alice' },
			text: 'Any news?',
		});
		expect(injected.body).toMatchObject({
			saved: true,
			message: { text: 'Any news?', channel: 'qr' },
		});
		const key = newKey();
		await api.call(
			'send_message',
			{ channel: 'qr', phoneNumber: DEMO.alice.phone, text: 'Tomorrow' },
			{ idempotencyKey: key },
		);
		expect((await api.control('GET', '/calls')).body.calls).toMatchObject([
			{ tool: 'send_message', idempotencyKey: key, status: 200 },
		]);
		expect((await api.control('GET', '/sends')).body.sends).toMatchObject([
			{ text: 'Tomorrow', idempotency_key: key, status: 'sent' },
		]);
		expect((await api.control('GET', '/effects')).body.effects).toMatchObject([
			{ tool: 'send_message', accountId: 'acc_demo' },
		]);
		const state = await api.control('GET', '/state');
		expect(state.body.accounts[0]).toMatchObject({
			id: 'acc_demo',
			plan: 'scale',
			filters: { mode: 'exclude' },
		});
		expect((await api.control('POST', '/reset', {})).body).toEqual({ reset: true });
		expect((await api.control('GET', '/sends')).body.sends).toEqual([]);
		// Keys survive a reset, so clients keep working.
		expect((await api.get('/api/v1/me')).status).toBe(200);
	});

	it('arms and clears faults, and moves the clock', async () => {
		const fault = await api.control('POST', '/faults', {
			tool: 'get_account_context',
			kind: 'toolError503',
			times: 2,
		});
		expect(fault.body.fault).toMatchObject({ remaining: 2 });
		expect((await api.call('get_account_context', {})).status).toBe(503);
		expect((await api.control('GET', '/faults')).body.faults).toMatchObject([{ remaining: 1 }]);
		await api.control('DELETE', '/faults');
		expect((await api.call('get_account_context', {})).status).toBe(200);
		expect((await api.control('POST', '/faults', { tool: 'x', kind: 'explode' })).status).toBe(400);
		const clock = await api.control('POST', '/clock', { advanceMs: 90_000 });
		expect(clock.body.now).toBe(new Date(START + 90_000).toISOString());
		expect((await api.control('POST', '/clock', { set: '2026-12-01T00:00:00Z' })).body.now).toBe(
			'2026-12-01T00:00:00.000Z',
		);
		expect((await api.control('POST', '/clock', { speed: 'fast' })).status).toBe(400);
	});

	it('connects and disconnects channels, visible on /api/v1/me', async () => {
		await api.control('POST', '/channels/business/disconnect', { reason: 'token_expired' });
		const me = await api.get('/api/v1/me');
		expect(me.body.numbers[1]).toEqual({
			channel: 'business',
			phone: DEMO.businessPhone,
			connected: false,
		});
		expect(me.body.ready).toBe(true);
		await api.control('POST', '/channels/qr/disconnect', {});
		expect((await api.get('/api/v1/me')).body.ready).toBe(false);
		expect((await api.control('GET', '/nope')).status).toBe(404);
	});

	it('routes /api/v1/webhooks to the webhook service, which delivers events for saved chats', async () => {
		const hook = await receiver();
		try {
			const register = await fetch(`${api.sandbox.url}/api/v1/webhooks`, {
				method: 'POST',
				headers: {
					authorization: `Bearer ${api.sandbox.apiKey}`,
					'content-type': 'application/json',
				},
				body: JSON.stringify({ url: hook.url, event_types: ['message.received', 'message.sent'] }),
			});
			const endpoint = (await register.json()) as { id: string; secret: string };
			expect(register.status).toBe(200);
			expect(endpoint.secret).toMatch(/^whsec_/);
			api.sandbox.inject.injectMessage({
				from: { phone: DEMO.alice.phone, name: 'Alice' },
				text: 'Ping',
			});
			await until(() => hook.received.some((r) => r.body.type === 'message.received'));
			const delivery = hook.received.find((r) => r.body.type === 'message.received')!;
			expect(delivery.headers['webhook-signature']).toMatch(/^v1,/);
			expect(delivery.body).toMatchObject({
				account_id: 'acc_demo',
				api_version: '2026-10-01',
				data: { message: { text: 'Ping', from_me: false } },
			});
			expect(delivery.body.id).toMatch(/^evt_/);
		} finally {
			await hook.close();
		}
	});

	it('loses message events, lets deliveries run out of retries and disables endpoints through POST /webhooks/faults', async () => {
		const hook = await receiver();
		try {
			await api.sandbox.inject.injectMessage({
				from: { phone: DEMO.alice.phone },
				text: 'warm-up',
			});
			const register = await fetch(`${api.sandbox.url}/api/v1/webhooks`, {
				method: 'POST',
				headers: {
					authorization: `Bearer ${api.sandbox.apiKey}`,
					'content-type': 'application/json',
				},
				body: JSON.stringify({ url: hook.url, event_types: ['message.received'] }),
			});
			const endpoint = (await register.json()) as { id: string };
			const set = await api.control('POST', '/webhooks/faults', { lose: 1, exhaust: 1 });
			expect(set.body).toMatchObject({ faults: { lose: 1, exhaust: 1 } });
			const say = (text: string) =>
				api.control('POST', '/inject/message', { from: { phone: DEMO.alice.phone }, text });
			await say('never queued');
			await say('never answered');
			await say('delivered');
			await until(() => hook.received.some((r) => r.body.data?.message?.text === 'delivered'));
			const state = (await api.control('GET', '/webhooks')).body as {
				deliveries: { eventType: string; attempts: number; status: string }[];
			};
			const received = state.deliveries.filter((d) => d.eventType === 'message.received');
			expect(received).toHaveLength(2);
			expect(received.map((d) => d.status).sort()).toEqual(['delivered', 'queued']);
			const texts = hook.received.map((r) => r.body.data?.message?.text);
			expect(texts).not.toContain('never queued');
			expect(texts).not.toContain('never answered');
			// Saved all the same: a read of the chat shows every message.
			const read = await api.call('get_messages', {
				conversationId: `${DEMO.alice.phone}@s.whatsapp.net`,
			});
			expect(JSON.stringify(read.body)).toContain('never queued');

			const disabled = await api.control('POST', '/webhooks/faults', { disable: 'gone' });
			expect(disabled.body).toMatchObject({ disabled: [endpoint.id] });
			expect((await api.control('POST', '/webhooks/faults', { disable: 'soon' })).status).toBe(400);
		} finally {
			await hook.close();
		}
	});
});
