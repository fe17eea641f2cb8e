import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO, SandboxClock } from '../../../sandbox';
import { startScriptedServer } from '../../../support/scriptedServer';
import { testClient } from '../../../support/testClient';
import { fieldsParameters, useHarness } from '../harness';

/*
 * Every error code of the spec, surfaced by a real workflow: as NodeApiError (code and message,
 * X-Request-Id, retry_after, upgrade_url and a hint) when the run stops, and in the item's
 * `error` under Continue On Fail. The API key appears nowhere.
 */

// 08:00 UTC, so moving the clock through a day's QR sends never crosses midnight.
const h = useHarness({ clock: new SandboxClock({ start: Date.UTC(2026, 9, 1, 8, 0, 0) }) });

const qrText = (text = 'Hello') =>
	fieldsParameters('send_message', { channel: 'qr', phoneNumber: DEMO.alice.phone, text });

function expectNoSecret(value: unknown): void {
	const text = JSON.stringify(value);
	for (const key of Object.values(h.sandbox.keys)) expect(text).not.toContain(key);
}

async function failingItem(
	parameters: INodeParameters,
	items: IDataObject[] = [{}],
): Promise<IDataObject> {
	const result = await h.run({ parameters, continueOnFail: true }, items);
	expect(result.error).toBeUndefined();
	expectNoSecret(result.json);
	return result.json[0].error as IDataObject;
}

describe('errors of the API, as the node reports them', () => {
	it('invalid_api_key: 401, what to do, the request id', async () => {
		h.usePersona('revoked');
		const result = await h.run({ parameters: qrText() });
		expect(result.error).toMatchObject({ httpCode: '401' });
		expect(result.error?.message).toMatch(/API key was rejected/);
		expect(result.error?.description).toMatch(/Error code: invalid_api_key \(HTTP 401\)/);
		expect(result.error?.description).toMatch(/Request ID: req_/);
		expectNoSecret(result.error);
		const error = await failingItem(qrText());
		expect(error).toMatchObject({
			code: 'invalid_api_key',
			httpCode: 401,
			hint: expect.stringMatching(/credential/),
		});
		expect(error.requestId).toMatch(/^req_/);
	});

	it('a tool the key may not use is refused before any request, naming the missing scope', async () => {
		h.usePersona('member');
		const parameters = fieldsParameters('create_group', {
			subject: 'Team',
			participants: DEMO.alice.phone,
		});
		const result = await h.run({ parameters, continueOnFail: true }, [{}, {}]);
		expect(result.json.map((json) => (json.error as IDataObject).code)).toEqual([
			'insufficient_permission',
			'insufficient_permission',
		]);
		expect(String((result.json[0].error as IDataObject).message)).toMatch(
			/may not use "Create a group".*"messenger\.groups".*Nothing was sent/,
		);
		expect(result.calls).toEqual([]);
	});

	it('plan_required carries the upgrade URL', async () => {
		h.usePersona('lowPlan');
		const result = await h.run({ parameters: qrText() });
		expect(result.error).toMatchObject({ httpCode: '403' });
		expect(result.error?.description).toMatch(/Upgrade: https?:\/\//);
		const error = await failingItem(qrText());
		expect(error).toMatchObject({
			code: 'plan_required',
			upgradeUrl: expect.stringMatching(/^https?:\/\//),
		});
	});

	it('unknown_tool for a tool the key cannot use', async () => {
		const result = await h.run({
			parameters: {
				resource: 'other',
				operation: 'callTool',
				toolName: 'teleport_message',
				inputMode: 'json',
				jsonInput: '{}',
			},
			continueOnFail: true,
		});
		expect(result.json[0].error).toMatchObject({
			code: 'unknown_tool',
			message: expect.stringMatching(/does not list the tool "teleport_message"/),
		});
		expect(result.calls).toEqual([]);
	});

	it('invalid_input from the service names the field', async () => {
		// Valid for the schema; the service counts the template's variables (order_update has 3).
		const template = fieldsParameters('send_message', {
			channel: 'business',
			phoneNumber: DEMO.carol.phone,
			templateName: 'order_update',
			templateLanguage: 'en',
			templateParameters: 'only one',
			recipientOptInConfirmed: true,
		});
		const error = await failingItem(template);
		expect(error).toMatchObject({
			code: 'invalid_input',
			httpCode: 400,
			field: 'templateParameters',
		});
	});

	it('rate_limited is waited out when short, reported with retry_after when longer than allowed', async () => {
		const direct = testClient(h.sandbox.url, h.sandbox.apiKey);
		for (let i = 0; i < 5; i++)
			await direct.client.callTool('send_message', {
				channel: 'qr',
				phoneNumber: DEMO.bob.phone,
				text: `warm-up ${i}`,
			});
		const error = await failingItem({ ...qrText(), options: { rateLimitWaitSeconds: 0 } });
		expect(error).toMatchObject({
			code: 'rate_limited',
			httpCode: 429,
			retryAfter: expect.any(Number),
		});
		expect(error.idempotencyKey).toBeTypeOf('string');

		// One second before a slot frees: the node waits out Retry-After and retries with the same key.
		h.sandbox.clock.advance(59_000);
		const result = await h.run({
			parameters: { ...qrText(), options: { rateLimitBudget: { budget: { qrSend: 100 } } } },
		});
		expect(result.error).toBeUndefined();
		const [limited, retried] = result.calls;
		expect([limited.errorCode, retried.status]).toEqual(['rate_limited', 200]);
		expect(retried.idempotencyKey).toBe(limited.idempotencyKey);
		await direct.close();
	});

	it('whatsapp_not_connected says to reconnect', async () => {
		h.sandbox.inject.setChannel('qr', false, { needsHuman: true, reason: 'logged_out' });
		const error = await failingItem(qrText());
		expect(error).toMatchObject({
			code: 'whatsapp_not_connected',
			httpCode: 409,
			hint: expect.stringMatching(/Reconnect/),
		});
	});

	it('tool_error 422 and 503 (after the retries are spent) quote the request id', async () => {
		const notMine = await failingItem(
			fieldsParameters('edit_message', { targetMessageId: 'nope', text: 'x' }),
		);
		expect(notMine).toMatchObject({
			code: 'tool_error',
			httpCode: 422,
			requestId: expect.stringMatching(/^req_/),
		});
		h.sandbox.faults.add({ tool: 'get_business_health', kind: 'toolError503', times: 10 });
		const result = await h.run({
			parameters: { resource: 'businessAccount', operation: 'getHealth' },
			continueOnFail: true,
		});
		expect(result.json[0].error).toMatchObject({ code: 'tool_error', httpCode: 503 });
		expect(result.calls.filter((call) => call.tool === 'get_business_health')).toHaveLength(5);
	});

	it('outcome_unknown that stays unknown is reported with the operation id, never resent with a new key', async () => {
		h.sandbox.faults.add({
			tool: 'send_message',
			kind: 'outcomeUnknown',
			commit: false,
			times: 10,
		});
		const error = await failingItem(qrText());
		expect(error).toMatchObject({
			code: 'outcome_unknown',
			httpCode: 409,
			operationId: expect.stringMatching(/^op_/),
		});
		expect(error.message).toMatch(/rerun with the idempotency key/);
		const sends = h.sandbox.calls().filter((call) => call.tool === 'send_message');
		expect(new Set(sends.map((call) => call.idempotencyKey)).size).toBe(1);
		expect(h.sandbox.calls().some((call) => call.tool === 'get_operation')).toBe(true);
	});
});

describe('daily_limit_reached', () => {
	async function useUpDailySends(leave: number): Promise<void> {
		const direct = testClient(h.sandbox.url, h.sandbox.apiKey);
		for (let sent = 0; sent < 50 - leave; sent++) {
			if (sent > 0 && sent % 5 === 0) h.sandbox.clock.advance(61_000);
			await direct.client.callTool('send_message', {
				channel: 'qr',
				phoneNumber: DEMO.bob.phone,
				text: `filler ${sent}`,
			});
		}
		h.sandbox.clock.advance(61_000);
		await direct.close();
	}

	const items = [
		{ channel: 'qr', text: 'one' },
		{ channel: 'qr', text: 'two' },
		{ channel: 'business', text: 'still fine' },
		{ channel: 'qr', text: 'three' },
	];
	const byItem = fieldsParameters('send_message', {
		channel: '={{ $json.channel }}',
		phoneNumber: DEMO.carol.phone,
		text: '={{ $json.text }}',
	});

	it('stops further QR sends of the run; with Continue On Fail they report it without calls', async () => {
		h.sandbox.inject.injectMessage({
			channel: 'business',
			from: { phone: DEMO.carol.phone },
			text: 'Hi',
		});
		await useUpDailySends(1);
		const result = await h.run({ parameters: byItem, continueOnFail: true }, items);
		const [first, second, business, third] = result.json;
		expect(first.status).toBe('accepted');
		expect(second.error).toMatchObject({
			code: 'daily_limit_reached',
			httpCode: 429,
			retryAfter: expect.any(Number),
		});
		expect(String((second.error as IDataObject).message)).toMatch(/00:00 UTC/);
		expect(business.channel).toBe('business');
		expect(third.error).toMatchObject({ code: 'daily_limit_reached' });
		expect(String((third.error as IDataObject).message)).toMatch(
			/^Not sent: .*earlier in this run.*00:00 UTC/,
		);
		// one accepted QR send, the refused one, the Business send after its window check: the last
		// QR item spent no call
		expect(result.calls.map((call) => [call.tool, call.errorCode ?? call.status])).toEqual([
			['send_message', 200],
			['send_message', 'daily_limit_reached'],
			['check_recipient_send_options', 200],
			['send_message', 200],
		]);
	});

	it('without Continue On Fail the run stops at the limit, saying when it resets', async () => {
		await useUpDailySends(0);
		const result = await h.run({ parameters: byItem }, items);
		expect(result.error?.message).toMatch(/daily API sends.*00:00 UTC in \d+ h/s);
		// The wait is said once: in the message, not again in the details.
		expect(result.error?.description).not.toMatch(/Retry after/);
		expect(result.error?.description).toMatch(/Error code: daily_limit_reached \(HTTP 429\)/);
		expect(result.calls).toHaveLength(1);
	});

	it('reads clearly to an AI agent: the 15-per-day agent budget and not to retry today', async () => {
		await useUpDailySends(0);
		const result = await h.run({ parameters: qrText(), type: 'messagingAutomationTool' });
		expect(result.error?.message).toMatch(/^Daily send limit reached\./);
		expect(result.error?.message).toMatch(/Do not retry today.*15 sends per day/);
	});
});

describe('a Base URL carrying secrets', () => {
	it('keeps user info and query tokens out of error messages, items and the stopped run', async () => {
		const closed = await startScriptedServer();
		await closed.stop();
		const baseUrl =
			closed.url.replace('http://', 'http://admin:pa55-in-url@') + '/?token=tok-in-url-123';
		h.engine.credentialsHelper.set('messagingAutomationApi', {
			apiKey: h.sandbox.keys.owner,
			baseUrl,
			authScheme: 'bearer',
		});
		const parameters = fieldsParameters(
			'get_send_status',
			{ message_id: 'msg_1' },
			{ options: { timeoutSeconds: 1 } },
		);
		const failed = await h.run({ parameters, continueOnFail: true });
		const stopped = await h.run({ parameters });
		const shown = JSON.stringify([
			failed.json,
			stopped.error,
			stopped.error?.message,
			stopped.error?.description,
		]);
		expect(shown).toContain(closed.url);
		for (const secret of ['pa55-in-url', 'tok-in-url-123', 'admin:'])
			expect(shown).not.toContain(secret);
		expect((failed.json[0].error as IDataObject).code).toBe('connection_refused');
		// In words, as the node wrote it: n8n swaps a message naming ECONNREFUSED for its own.
		expect(stopped.error?.message).toBe(
			`Nothing at ${closed.url} accepted the connection (connection refused). Check the host and port of the credential's Base URL, and that the service runs there. Nothing reached the service.`,
		);
		expect(stopped.error?.description).toContain('Network error: ECONNREFUSED');
	});
});
