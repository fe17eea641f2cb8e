import { describe, expect, it } from 'vitest';
import { newKey, raw, useSandbox } from './harness';

const SEND = { channel: 'qr', phoneNumber: '4915112345678', text: 'Your parcel is on its way' };

describe('sandbox idempotency and uncertain outcomes', () => {
	const api = useSandbox();
	const sends = () => api.sandbox.inject.sends();

	it('replays the first result for the same key and identical input, with no second effect', async () => {
		const key = newKey();
		const first = await api.call('send_message', SEND, { idempotencyKey: key });
		const second = await api.call(
			'send_message',
			{ text: SEND.text, phoneNumber: SEND.phoneNumber, channel: 'qr' },
			{ idempotencyKey: key },
		);
		expect(first.status).toBe(200);
		expect(first.headers['idempotent-replayed']).toBeUndefined();
		expect(second.status).toBe(200);
		expect(second.headers['idempotent-replayed']).toBe('true');
		expect(second.body).toEqual(first.body);
		expect(sends()).toHaveLength(1);
		expect(api.sandbox.calls().map((c) => c.replayed)).toEqual([false, true]);
	});

	it('refuses the same key with different input, naming idempotencyKey', async () => {
		const key = newKey();
		await api.call('send_message', SEND, { idempotencyKey: key });
		const clash = await api.call(
			'send_message',
			{ ...SEND, text: 'Something else' },
			{ idempotencyKey: key },
		);
		expect(clash.status).toBe(400);
		expect(clash.body.error).toMatchObject({ code: 'invalid_input', field: 'idempotencyKey' });
		expect(sends()).toHaveLength(1);
	});

	it('lets the body idempotencyKey override the header', async () => {
		const bodyKey = newKey('body');
		const created = await api.call(
			'create_campaign',
			{
				idempotencyKey: bodyKey,
				name: 'A',
				templateName: 'order_update',
				templateLanguage: 'en',
				maxMessages: 5,
			},
			{ idempotencyKey: newKey('header') },
		);
		expect(created.status).toBe(200);
		expect(api.sandbox.calls()[0].idempotencyKey).toBe(bodyKey);
		const replay = await api.call(
			'create_campaign',
			{
				idempotencyKey: bodyKey,
				name: 'A',
				templateName: 'order_update',
				templateLanguage: 'en',
				maxMessages: 5,
			},
			{ idempotencyKey: newKey('other-header') },
		);
		expect(replay.headers['idempotent-replayed']).toBe('true');
		expect(replay.body.campaign_id).toBe(created.body.campaign_id);
	});

	it('takes the key from the header for tools whose schema requires idempotencyKey', async () => {
		const reply = await api.call(
			'create_campaign',
			{ name: 'A', templateName: 'order_update', templateLanguage: 'en', maxMessages: 5 },
			{ idempotencyKey: newKey() },
		);
		expect(reply.status).toBe(200);
	});

	it.each([
		['missing', undefined],
		['too short', 'abc'],
		['with a bad character', 'key with spaces'],
		['too long', 'k'.repeat(129)],
	])('answers 400 field idempotencyKey when the key is %s', async (_, key) => {
		const reply = await api.call('send_message', SEND, key ? { idempotencyKey: key } : {});
		expect(reply.status).toBe(400);
		expect(reply.body.error).toMatchObject({ code: 'invalid_input', field: 'idempotencyKey' });
		expect(sends()).toHaveLength(0);
	});

	it('does not store refused calls: the same key can carry the corrected input', async () => {
		const key = newKey();
		const refused = await api.call(
			'send_message',
			{ ...SEND, phoneNumber: '15550199999' },
			{ idempotencyKey: key },
		);
		expect(refused.status).toBe(422);
		const fixed = await api.call('send_message', SEND, { idempotencyKey: key });
		expect(fixed.status).toBe(200);
	});

	it('commits then drops the connection; a retry with the same key replays and sends once', async () => {
		api.sandbox.faults.add({ tool: 'send_message', kind: 'dropAfterCommit' });
		const key = newKey();
		await expect(api.call('send_message', SEND, { idempotencyKey: key })).rejects.toThrow();
		expect(sends()).toHaveLength(1);
		const retry = await api.call('send_message', SEND, { idempotencyKey: key });
		expect(retry.status).toBe(200);
		expect(retry.headers['idempotent-replayed']).toBe('true');
		expect(retry.body.message_id).toBe(sends()[0].message_id);
		expect(sends()).toHaveLength(1);
		expect(api.sandbox.state.effects).toHaveLength(1);
	});

	it('holds the answer past a client time-out after committing; the retry still sends once', async () => {
		api.sandbox.faults.add({ tool: 'send_message', kind: 'delay', delayMs: 400 });
		const key = newKey();
		const call = () =>
			api.call('send_message', SEND, { idempotencyKey: key }).catch((error: Error) => error);
		const timedOut = await Promise.race([
			call(),
			new Promise((resolve) => setTimeout(() => resolve('client gave up'), 100)),
		]);
		expect(timedOut).toBe('client gave up');
		expect(sends()).toHaveLength(1);
		const retry = await api.call('send_message', SEND, { idempotencyKey: key });
		expect(retry.headers['idempotent-replayed']).toBe('true');
		expect(sends()).toHaveLength(1);
	});

	it('answers 409 outcome_unknown after committing; get_operation and get_send_status tell the truth', async () => {
		api.sandbox.faults.add({ tool: 'send_message', kind: 'outcomeUnknown', commit: true });
		const key = newKey();
		const reply = await api.call('send_message', SEND, { idempotencyKey: key });
		expect(reply.status).toBe(409);
		expect(reply.body.error).toMatchObject({
			code: 'outcome_unknown',
			operation_id: expect.stringMatching(/^op_/),
		});
		const op = await api.call('get_operation', { operation_id: reply.body.error.operation_id });
		expect(op.body).toMatchObject({
			status: 'succeeded',
			tool: 'send_message',
			result: { status: 'accepted' },
		});
		const status = await api.call('get_send_status', { idempotencyKey: key });
		expect(status.body).toMatchObject({ status: 'sent', message_id: sends()[0].message_id });
		const retry = await api.call('send_message', SEND, { idempotencyKey: key });
		expect(retry.headers['idempotent-replayed']).toBe('true');
		expect(sends()).toHaveLength(1);
	});

	it('answers 409 outcome_unknown without committing; the truth is "failed" and a same-key retry sends once', async () => {
		api.sandbox.faults.add({ tool: 'send_message', kind: 'outcomeUnknown', commit: false });
		const key = newKey();
		const reply = await api.call('send_message', SEND, { idempotencyKey: key });
		expect(reply.status).toBe(409);
		const op = await api.call('get_operation', { operation_id: reply.body.error.operation_id });
		expect(op.body.status).toBe('failed');
		expect((await api.call('get_send_status', { idempotencyKey: key })).body.status).toBe(
			'not_found',
		);
		expect(sends()).toHaveLength(0);
		const retry = await api.call('send_message', SEND, { idempotencyKey: key });
		expect(retry.status).toBe(200);
		expect(retry.headers['idempotent-replayed']).toBeUndefined();
		expect((await api.call('get_operation', { idempotencyKey: key })).body.status).toBe(
			'succeeded',
		);
		expect(sends()).toHaveLength(1);
	});

	it('injects 422 tool_error and not-connected faults for the next N calls only', async () => {
		api.sandbox.faults.add({ tool: 'get_business_account', kind: 'toolError422', times: 2 });
		api.sandbox.faults.add({ tool: 'send_message', kind: 'notConnected' });
		const statuses = [];
		for (let i = 0; i < 3; i++) statuses.push((await api.call('get_business_account', {})).status);
		expect(statuses).toEqual([422, 422, 200]);
		const send = await api.call('send_message', SEND, { idempotencyKey: newKey() });
		expect(send.body.error.code).toBe('whatsapp_not_connected');
		expect((await api.call('send_message', SEND, { idempotencyKey: newKey() })).status).toBe(200);
	});

	it('registers one webhook endpoint when a create is retried with the same Idempotency-Key', async () => {
		const key = newKey('hook');
		const create = (url: string) =>
			raw(api.sandbox.url, 'POST', '/api/v1/webhooks', {
				headers: {
					'content-type': 'application/json',
					authorization: `Bearer ${api.sandbox.keys.owner}`,
					'idempotency-key': key,
				},
				body: JSON.stringify({ url, event_types: ['message.received'] }),
			});
		const first = await create('https://hooks.example.com/a');
		const retry = await create('https://hooks.example.com/a');
		expect(first.status).toBe(200);
		expect(retry.body).toEqual(first.body);
		expect(api.sandbox.webhooks.endpoints()).toHaveLength(1);
		const clash = await create('https://hooks.example.com/b');
		expect(clash.status).toBe(400);
		expect(clash.body.error).toMatchObject({ code: 'invalid_input', field: 'idempotencyKey' });
	});
});
