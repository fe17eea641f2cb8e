import { describe, expect, it } from 'vitest';
import { newKey, raw, useSandbox, write, type Reply } from './harness';

const ALICE = { channel: 'qr', phoneNumber: '4915112345678' };

function expectRateLimited(reply: Reply, code: string, seconds: number): void {
	expect(reply.status).toBe(429);
	expect(reply.body.error).toMatchObject({ code, retry_after: seconds });
	expect(reply.headers['retry-after']).toBe(String(seconds));
}

describe('sandbox limits on the sandbox clock', () => {
	const api = useSandbox();
	const qrSend = (text: string) => write(api, 'send_message', { ...ALICE, text });

	it('allows 120 write calls per sliding minute per key, then 429 rate_limited with Retry-After', async () => {
		const key = newKey();
		const body = {
			name: 'Batch',
			templateName: 'order_update',
			templateLanguage: 'en',
			maxMessages: 1,
		};
		// Replays are calls too, so one key exercises the window without 120 effects.
		const replies = await Promise.all(
			Array.from({ length: 120 }, () => api.call('create_campaign', body, { idempotencyKey: key })),
		);
		expect(replies.every((r) => r.status === 200)).toBe(true);
		api.sandbox.clock.advance(20_000);
		expectRateLimited(
			await api.call('create_campaign', body, { idempotencyKey: key }),
			'rate_limited',
			40,
		);
		// Another key of the same account has its own window; reads are counted apart.
		expect(
			(await api.call('create_campaign', body, { idempotencyKey: newKey(), as: 'member' })).status,
		).toBe(200);
		expect((await api.call('get_account_context', {})).status).toBe(200);
		api.sandbox.clock.advance(40_000);
		expect((await api.call('create_campaign', body, { idempotencyKey: key })).status).toBe(200);
	});

	it('allows 600 read calls per sliding minute per key', async () => {
		for (let batch = 0; batch < 6; batch++) {
			const replies = await Promise.all(
				Array.from({ length: 100 }, () => api.call('get_account_context', {})),
			);
			expect(replies.every((r) => r.status === 200)).toBe(true);
			api.sandbox.clock.advance(1000);
		}
		// The oldest 100 calls (at 0 s) leave the window at 60 s; the clock is at 6 s.
		expectRateLimited(await api.call('get_account_context', {}), 'rate_limited', 54);
		api.sandbox.clock.advance(54_000);
		expect((await api.call('get_account_context', {})).status).toBe(200);
	});

	it('counts webhook management as read (GET) and write (POST) calls', async () => {
		const key = newKey();
		const body = {
			name: 'W',
			templateName: 'order_update',
			templateLanguage: 'en',
			maxMessages: 1,
		};
		await Promise.all(
			Array.from({ length: 119 }, () => api.call('create_campaign', body, { idempotencyKey: key })),
		);
		expect((await api.get('/api/v1/webhooks')).status).toBe(200);
		const created = await api.call('create_campaign', body, { idempotencyKey: key });
		expect(created.status).toBe(200);
		const register = await raw(api.sandbox.url, 'POST', '/api/v1/webhooks', {
			headers: {
				authorization: `Bearer ${api.sandbox.apiKey}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', event_types: ['message.received'] }),
		});
		expectRateLimited(register, 'rate_limited', 60);
	});

	it('allows 5 QR sends per minute per number, then 429 rate_limited; refused sends are not counted', async () => {
		for (let i = 0; i < 5; i++) {
			expect((await qrSend(`update ${i}`)).status).toBe(200);
			api.sandbox.clock.advance(5000);
		}
		expectRateLimited(await qrSend('one too many'), 'rate_limited', 35);
		expect(api.sandbox.inject.sends()).toHaveLength(5);
		api.sandbox.clock.advance(35_000);
		expect((await qrSend('fits again')).status).toBe(200);
	});

	it('POST /__sandbox/limits/qr-sends/reset forgets the counted QR sends, minute and day, and nothing else', async () => {
		for (let i = 0; i < 5; i++) expect((await qrSend(`update ${i}`)).status).toBe(200);
		expectRateLimited(await qrSend('one too many'), 'rate_limited', 60);
		const before = api.sandbox.clock.now();
		expect((await api.control('POST', '/limits/qr-sends/reset')).body).toEqual({ reset: true });
		expect(api.sandbox.clock.now() - before).toBeLessThan(1000);
		expect((await qrSend('fits again')).status).toBe(200);
		expect(api.sandbox.inject.sends()).toHaveLength(6);
	});

	it('counts edit, delete and forward against the same QR budget', async () => {
		const sent = await qrSend('first');
		const edited = await write(api, 'edit_message', {
			targetMessageId: sent.body.message_id,
			text: 'first (edited)',
		});
		expect(edited.status).toBe(200);
		const forwarded = await write(api, 'forward_message', {
			phoneNumber: '447700900123',
			sourceMessageId: sent.body.message_id,
		});
		expect(forwarded.status).toBe(200);
		expect(
			(await write(api, 'delete_message', { targetMessageId: sent.body.message_id })).status,
		).toBe(200);
		expect((await qrSend('fifth')).status).toBe(200);
		expectRateLimited(await qrSend('sixth'), 'rate_limited', 60);
	});

	it('counts group messages as sends', async () => {
		for (let i = 0; i < 5; i++) {
			expect(
				(
					await write(api, 'send_message', {
						channel: 'qr',
						conversationId: '120363025246125486@g.us',
						text: `g${i}`,
					})
				).status,
			).toBe(200);
		}
		expect((await qrSend('direct')).status).toBe(429);
	});

	it('allows 50 QR sends per UTC day; then daily_limit_reached with Retry-After to 00:00 UTC', async () => {
		api.sandbox.clock.set(Date.parse('2026-11-20T08:00:00.000Z'));
		for (let i = 0; i < 50; i++) {
			expect((await qrSend(`daily ${i}`)).status).toBe(200);
			api.sandbox.clock.advance(15 * 60_000);
		}
		// 50 sends x 15 min = 12.5 h after 08:00 -> 20:30 UTC, 3.5 h before midnight.
		expectRateLimited(await qrSend('over the day'), 'daily_limit_reached', 3.5 * 3600);
		api.sandbox.clock.set(Date.parse('2026-11-21T00:00:00.000Z'));
		expect((await qrSend('new day')).status).toBe(200);
	});

	it('does not apply QR limits to the Business channel', async () => {
		for (let i = 0; i < 7; i++) {
			const reply = await write(api, 'send_message', {
				channel: 'business',
				phoneNumber: '5511987654321',
				text: `reply ${i}`,
			});
			expect(reply.status).toBe(200);
		}
	});

	it('replays do not count as sends', async () => {
		const key = newKey();
		for (let i = 0; i < 8; i++) {
			expect(
				(await api.call('send_message', { ...ALICE, text: 'same' }, { idempotencyKey: key }))
					.status,
			).toBe(200);
		}
		expect(api.sandbox.inject.sends()).toHaveLength(1);
	});
});
