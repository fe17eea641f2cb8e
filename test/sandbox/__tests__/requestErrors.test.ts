import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../http';
import { newKey, raw, useSandbox, write } from './harness';

describe('sandbox request handling and error codes', () => {
	const api = useSandbox();
	const post = (tool: string, headers: Record<string, string>, body: string) =>
		raw(api.sandbox.url, 'POST', `/api/v1/tools/${tool}`, {
			headers: { authorization: `Bearer ${api.sandbox.apiKey}`, ...headers },
			body,
		});

	it('answers 415 invalid_input for a body that is not declared as JSON', async () => {
		const reply = await post('get_account_context', { 'content-type': 'text/plain' }, '{}');
		expect(reply.status).toBe(415);
		expect(reply.body.error.code).toBe('invalid_input');
		expect((await post('get_account_context', {}, '{}')).status).toBe(415);
	});

	it('answers 413 invalid_input for an oversized body', async () => {
		const csv = 'x'.repeat(MAX_BODY_BYTES + 10);
		const reply = await post(
			'analyze_campaign_csv',
			{ 'content-type': 'application/json' },
			JSON.stringify({ csv }),
		);
		expect(reply.status).toBe(413);
		expect(reply.body.error.code).toBe('invalid_input');
	});

	it('answers 400 invalid_input for unparsable JSON and for non-object bodies', async () => {
		const json = { 'content-type': 'application/json; charset=utf-8' };
		for (const body of ['{"a":', '[]', 'null', '']) {
			const reply = await post('get_account_context', json, body);
			expect(reply.status).toBe(400);
			expect(reply.body.error).toMatchObject({ code: 'invalid_input', field: 'body' });
		}
		expect((await post('get_account_context', json, '{}')).status).toBe(200);
	});

	it('rejects unknown properties and names the field', async () => {
		const reply = await api.call('get_account_context', { verbose: true });
		expect(reply.status).toBe(400);
		expect(reply.body.error).toMatchObject({ code: 'invalid_input', field: 'verbose' });
	});

	it('names a nested failing field with its path and the rule', async () => {
		const { body: campaign } = await write(api, 'create_campaign', {
			name: 'Autumn',
			templateName: 'order_update',
			templateLanguage: 'en',
			maxMessages: 10,
		});
		const reply = await write(api, 'add_campaign_recipients', {
			campaignId: campaign.campaign_id,
			recipients: [
				{
					phoneNumber: '4915112345678',
					consentSource: 'web form',
					consentAt: '2026-11-01T10:00:00Z',
				},
				{
					phoneNumber: '015112345678',
					consentSource: 'web form',
					consentAt: '2026-11-01T10:00:00Z',
				},
			],
		});
		expect(reply.status).toBe(400);
		expect(reply.body.error.field).toBe('recipients[1].phoneNumber');
		expect(reply.body.error.message).toContain('7-15 digits, first digit not 0');
	});

	it('answers 409 whatsapp_not_connected when the intended channel is down', async () => {
		await api.control('POST', '/channels/qr/disconnect', {});
		const send = await write(api, 'send_message', {
			channel: 'qr',
			phoneNumber: '4915112345678',
			text: 'hi',
		});
		expect(send.status).toBe(409);
		expect(send.body.error.code).toBe('whatsapp_not_connected');
		const group = await write(api, 'create_group', {
			subject: 'x',
			participants: ['4915112345678'],
		});
		expect(group.body.error.code).toBe('whatsapp_not_connected');
		// With only Business connected, an unspecified channel means Business.
		const business = await write(api, 'send_message', {
			phoneNumber: '5511987654321',
			text: 'Yes, on Sundays too',
		});
		expect(business.status).toBe(200);
		expect(business.body.channel).toBe('business');
		await api.control('POST', '/channels/business/disconnect', {});
		const none = await write(api, 'get_business_health' as string, {});
		expect(none.body.error.code).toBe('whatsapp_not_connected');
	});

	it('requires channel when both channels are connected', async () => {
		const reply = await write(api, 'send_message', { phoneNumber: '4915112345678', text: 'hi' });
		expect(reply.status).toBe(400);
		expect(reply.body.error).toMatchObject({ code: 'invalid_input', field: 'channel' });
	});

	it('answers 422 tool_error for a failed tool and 503 tool_error for an injected outage', async () => {
		const missing = await write(api, 'cancel_campaign', {
			campaignId: '3f2b8c1e-0d4a-4e7b-9a51-6c2d9e8f1a00',
		});
		expect(missing.status).toBe(422);
		expect(missing.body.error.code).toBe('tool_error');
		api.sandbox.faults.add({ tool: 'get_business_health', kind: 'toolError503' });
		const outage = await api.call('get_business_health', {});
		expect(outage.status).toBe(503);
		expect(outage.body.error.code).toBe('tool_error');
		expect((await api.call('get_business_health', {})).status).toBe(200);
	});

	it('records every call with key name, idempotency key, status and error code', async () => {
		const key = newKey();
		await api.call(
			'send_message',
			{ channel: 'qr', phoneNumber: '4915112345678', text: 'hi' },
			{ idempotencyKey: key, as: 'member' },
		);
		await api.call('send_fax', {});
		const calls = api.sandbox.calls();
		expect(calls).toHaveLength(2);
		expect(calls[0]).toMatchObject({
			tool: 'send_message',
			keyName: 'member',
			idempotencyKey: key,
			status: 200,
			replayed: false,
		});
		expect(calls[1]).toMatchObject({ tool: 'send_fax', status: 404, errorCode: 'unknown_tool' });
	});
});
