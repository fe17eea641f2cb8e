import { describe, expect, it } from 'vitest';
import { raw, useSandbox } from './harness';

describe('sandbox authentication and plans', () => {
	const api = useSandbox();

	it('accepts the key as a Bearer token and in the X-API-Key header', async () => {
		const bearer = await api.get('/api/v1/me');
		expect(bearer.status).toBe(200);
		const header = await raw(api.sandbox.url, 'GET', '/api/v1/me', {
			headers: { 'x-api-key': api.sandbox.apiKey },
		});
		expect(header.status).toBe(200);
		expect(header.body).toEqual(bearer.body);
	});

	it('describes account, key, numbers and readiness on /api/v1/me', async () => {
		const { body } = await api.get('/api/v1/me', { as: 'member' });
		expect(body).toEqual({
			account: { id: 'acc_demo', name: 'Demo Shop', plan: 'scale' },
			key: { name: 'member', scopes: ['messenger.read', 'messenger.send'], owner: false },
			numbers: [
				{ channel: 'qr', phone: '15550100001', connected: true },
				{ channel: 'business', phone: '15550100002', connected: true },
			],
			ready: true,
		});
	});

	it.each([
		['missing', {}],
		['unknown', { authorization: 'Bearer ma_sk_not_a_real_key' }],
		['malformed scheme', { authorization: `Basic ${'x'.repeat(10)}` }],
	])('answers 401 invalid_api_key for a %s key', async (_, headers) => {
		const reply = await raw(api.sandbox.url, 'GET', '/api/v1/me', { headers });
		expect(reply.status).toBe(401);
		expect(reply.body.error.code).toBe('invalid_api_key');
		expect(reply.headers['x-request-id']).toMatch(/^req_/);
	});

	it('answers 401 for a revoked key, also on tool calls', async () => {
		const reply = await api.call('get_account_context', {}, { as: 'revoked' });
		expect(reply.status).toBe(401);
		expect(reply.body.error.code).toBe('invalid_api_key');
	});

	it('revoking a key through the control API locks it out at once', async () => {
		expect((await api.get('/api/v1/me', { as: 'member' })).status).toBe(200);
		await api.control('POST', '/keys/revoke', { key: api.sandbox.keys.member });
		expect((await api.get('/api/v1/me', { as: 'member' })).status).toBe(401);
	});

	it('answers 403 plan_required with upgrade_url for accounts below the top plan, on every endpoint', async () => {
		for (const reply of [
			await api.get('/api/v1/me', { as: 'lowPlan' }),
			await api.get('/api/v1/tools', { as: 'lowPlan' }),
			await api.call('get_account_context', {}, { as: 'lowPlan' }),
			await api.get('/api/v1/webhooks', { as: 'lowPlan' }),
		]) {
			expect(reply.status).toBe(403);
			expect(reply.body.error).toMatchObject({
				code: 'plan_required',
				upgrade_url: expect.stringMatching(/^https:\/\//),
			});
		}
	});

	it('allows at most ten active keys per account (revoked ones do not count)', async () => {
		const created = [];
		// The demo account starts with 4 active keys (owner, member, readOnly, noWebhooks).
		for (let i = 0; i < 6; i++)
			created.push(await api.control('POST', '/keys', { name: `extra-${i}` }));
		expect(created.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
		const eleventh = await api.control('POST', '/keys', { name: 'one-too-many' });
		expect(eleventh.status).toBe(422);
		expect(eleventh.body.error.code).toBe('tool_error');
		expect(eleventh.body.error.message).toMatch(/at most 10 active/);
		await api.control('POST', '/keys/revoke', { key: created[0].body.key });
		expect((await api.control('POST', '/keys', { name: 'replacement' })).status).toBe(200);
	});

	it('gives a new key the default read and send scopes and lets it call tools', async () => {
		const { body } = await api.control('POST', '/keys', { name: 'fresh' });
		expect(body.scopes).toEqual(['messenger.read', 'messenger.send']);
		const me = await api.get('/api/v1/me', { key: body.key });
		expect(me.body.key).toEqual({
			name: 'fresh',
			scopes: ['messenger.read', 'messenger.send'],
			owner: false,
		});
	});

	it('puts X-Request-Id on successes, errors and unknown routes alike', async () => {
		const replies = [
			await api.get('/api/v1/me'),
			await api.call('no_such_tool'),
			await raw(api.sandbox.url, 'GET', '/nowhere'),
		];
		const ids = replies.map((r) => r.headers['x-request-id']);
		for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
		expect(new Set(ids).size).toBe(3);
	});
});
