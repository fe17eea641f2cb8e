import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';

import { MessagingClient, type MessagingClientOptions } from '../../../../nodes/shared/client/client';
import * as errors from '../../../../nodes/shared/client/errors';
import { Pacer } from '../../../../nodes/shared/client/pacer';
import { DEMO, SandboxClock, startSandbox, type SandboxHandle } from '../../../sandbox';
import { createUndiciTransport, type UndiciTransport } from '../../../support/undiciTransport';

/** 08:00 UTC, so a whole day of QR sends fits before the counters reset. */
const START = Date.UTC(2026, 9, 1, 8, 0, 0);

let sandbox: SandboxHandle;
const transports: UndiciTransport[] = [];

beforeAll(async () => {
	sandbox = await startSandbox({ clock: new SandboxClock({ start: START }), seed: 7 });
});
beforeEach(() => {
	sandbox.reset();
	sandbox.clock.set(START);
});
afterAll(async () => {
	await Promise.all(transports.map((transport) => transport.close()));
	await sandbox.stop();
});

/** Client whose waits move the sandbox clock instead of the wall clock. */
function clientFor(key: string, options: Partial<MessagingClientOptions> = {}) {
	const transport = createUndiciTransport({ baseUrl: sandbox.url, apiKey: key });
	transports.push(transport);
	const sleeps: number[] = [];
	const client = new MessagingClient({
		transport,
		sleep: async (ms) => {
			sleeps.push(ms);
			sandbox.clock.advance(ms);
		},
		random: () => 0.5,
		timeoutMs: 5_000,
		...options,
	});
	return { client, sleeps };
}

function pacer() {
	return new Pacer({ now: () => sandbox.clock.now(), sleep: async (ms) => sandbox.clock.advance(ms) });
}

const qrSend = (text: string) => ({ channel: 'qr', phoneNumber: DEMO.alice.phone, text });

async function rejection(promise: Promise<unknown>): Promise<errors.MessagingApiError> {
	const error = await promise.then(() => undefined, (thrown: unknown) => thrown);
	expect(error).toBeInstanceOf(errors.MessagingApiError);
	const typed = error as errors.MessagingApiError;
	expect(typed.requestId).toMatch(/^req_/);
	for (const secret of Object.values(sandbox.keys)) expect(typed.message).not.toContain(secret);
	return typed;
}

const noRetry = { retry: { maxAttempts: 1 } };

describe('every documented error code from the sandbox', () => {
	it('invalid_api_key: unknown and revoked keys', async () => {
		for (const key of ['mk_not_a_real_key_123', sandbox.keys.revoked]) {
			const error = await rejection(clientFor(key).client.getMe());
			expect(error).toBeInstanceOf(errors.InvalidApiKeyError);
			expect(error.status).toBe(401);
		}
	});

	it('insufficient_permission names the missing scope', async () => {
		const error = await rejection(clientFor(sandbox.keys.readOnly).client.callTool('send_message', qrSend('hi')));
		expect(error).toBeInstanceOf(errors.InsufficientPermissionError);
		expect(error.status).toBe(403);
		expect(error.scope).toBe('messenger.send');
		expect(error.message).toContain('"messenger.send"');
		const webhooks = await rejection(clientFor(sandbox.keys.member).client.webhooks.list());
		expect(webhooks.scope).toBe('messenger.webhooks:manage');
		const consent = await rejection(clientFor(sandbox.keys.noConsent).client.callTool('list_conversations', {}, { access: 'read' }));
		expect(consent).toBeInstanceOf(errors.InsufficientPermissionError);
		expect(consent.message).toContain('consent');
	});

	it('plan_required carries the upgrade URL', async () => {
		const error = await rejection(clientFor(sandbox.keys.lowPlan).client.getMe());
		expect(error).toBeInstanceOf(errors.PlanRequiredError);
		expect(error.upgradeUrl).toMatch(/^https:\/\//);
		expect(error.message).toContain(error.upgradeUrl);
	});

	it('unknown_tool', async () => {
		const error = await rejection(clientFor(sandbox.apiKey).client.callTool('no_such_tool', {}, { access: 'read' }));
		expect(error).toBeInstanceOf(errors.UnknownToolError);
		expect(error.status).toBe(404);
	});

	it('invalid_input: schema failure with its field, and a body over the size limit (413)', async () => {
		const { client } = clientFor(sandbox.apiKey);
		const bad = await rejection(client.callTool('send_message', { channel: 'qr', phoneNumber: '0123', text: 'hi' }));
		expect(bad).toBeInstanceOf(errors.InvalidInputError);
		expect(bad.status).toBe(400);
		expect(bad.field).toBe('phoneNumber');
		const huge = await rejection(client.callTool('analyze_campaign_csv', { csv: 'x'.repeat(2_200_000) }));
		expect(huge).toBeInstanceOf(errors.InvalidInputError);
		expect(huge.status).toBe(413);
	});

	it('rate_limited after 120 writes in a minute, with Retry-After', async () => {
		const { client } = clientFor(sandbox.apiKey, noRetry);
		for (let i = 0; i < 120; i++) await client.callTool('cancel_campaign', {}).catch(() => undefined);
		const error = await rejection(client.callTool('cancel_campaign', {}));
		expect(error).toBeInstanceOf(errors.RateLimitedError);
		expect(error.status).toBe(429);
		expect(error.retryAfter).toBeGreaterThan(0);
		expect(error.retryAfter).toBeLessThanOrEqual(60);
	});

	it('daily_limit_reached after 50 QR sends, says when it resets, and is not retried', async () => {
		const { client, sleeps } = clientFor(sandbox.apiKey, { pacer: pacer() });
		for (let i = 0; i < 50; i++) await client.callTool('send_message', qrSend(`message ${i}`));
		const error = await rejection(client.callTool('send_message', qrSend('one too many')));
		expect(error).toBeInstanceOf(errors.DailyLimitReachedError);
		expect(error.status).toBe(429);
		const toMidnight = (Date.UTC(2026, 9, 2) - sandbox.clock.now()) / 1000;
		expect(Math.abs((error.retryAfter ?? 0) - toMidnight)).toBeLessThan(5);
		expect(error.message).toContain('00:00 UTC');
		expect(error.attempts).toBe(1);
		expect(sandbox.calls().filter((call) => call.errorCode === 'daily_limit_reached')).toHaveLength(1);
		// The pacer spread the 50 sends over 10 windows, and nothing hit a per-minute 429.
		expect(sandbox.calls().some((call) => call.errorCode === 'rate_limited')).toBe(false);
		expect(sleeps).toEqual([]);
	});

	it('whatsapp_not_connected', async () => {
		sandbox.faults.add({ tool: 'send_message', kind: 'notConnected' });
		const error = await rejection(clientFor(sandbox.apiKey).client.callTool('send_message', qrSend('hi')));
		expect(error).toBeInstanceOf(errors.WhatsappNotConnectedError);
		expect(error.status).toBe(409);
	});

	it('tool_error 422 (not retried) and 503 (retried until it clears)', async () => {
		sandbox.faults.add({ tool: 'send_message', kind: 'toolError422' });
		const failed = await rejection(clientFor(sandbox.apiKey).client.callTool('send_message', qrSend('hi')));
		expect(failed).toBeInstanceOf(errors.ToolError);
		expect(failed.status).toBe(422);
		expect(failed.message).toContain(failed.requestId);
		sandbox.faults.add({ tool: 'send_message', kind: 'toolError503', times: 10 });
		const unavailable = await rejection(clientFor(sandbox.apiKey, { retry: { maxAttempts: 2 } }).client.callTool('send_message', qrSend('hi')));
		expect(unavailable).toBeInstanceOf(errors.ToolError);
		expect(unavailable.status).toBe(503);
		expect(unavailable.attempts).toBe(2);
	});

	it('outcome_unknown is never resent; get_operation tells the truth', async () => {
		sandbox.faults.add({ tool: 'send_message', kind: 'outcomeUnknown', commit: true });
		const { client } = clientFor(sandbox.apiKey);
		const error = await rejection(client.callTool('send_message', qrSend('hi'), { idempotencyKey: 'unknown-outcome-1' }));
		expect(error).toBeInstanceOf(errors.OutcomeUnknownError);
		expect(error.operationId).toMatch(/^op_/);
		expect(error.idempotencyKey).toBe('unknown-outcome-1');
		expect(sandbox.calls().filter((call) => call.tool === 'send_message')).toHaveLength(1);
		const operation = await client.callTool<{ status: string }>('get_operation', { operation_id: error.operationId });
		expect(operation.data.status).toBe('succeeded');
	});
});

describe('idempotent retries against the sandbox: one effect per call', () => {
	it('503 twice, then success: three requests, one key, one effect', async () => {
		sandbox.faults.add({ tool: 'send_message', kind: 'toolError503', times: 2 });
		const { client } = clientFor(sandbox.apiKey);
		const result = await client.callTool('send_message', qrSend('hi'));
		expect(result.attempts).toBe(3);
		const calls = sandbox.calls().filter((call) => call.tool === 'send_message');
		expect(calls.map((call) => call.idempotencyKey)).toEqual(Array(3).fill(result.idempotencyKey));
		expect(calls.map((call) => call.status)).toEqual([503, 503, 200]);
	});

	it('a connection dropped after commit: the retry is a replay, not a second send', async () => {
		sandbox.faults.add({ tool: 'send_message', kind: 'dropAfterCommit' });
		const result = await clientFor(sandbox.apiKey).client.callTool('send_message', qrSend('hi'));
		expect(result).toMatchObject({ attempts: 2, replayed: true });
		const calls = sandbox.calls().filter((call) => call.tool === 'send_message');
		expect(calls.map((call) => call.replayed)).toEqual([false, true]);
		expect(new Set(calls.map((call) => call.idempotencyKey)).size).toBe(1);
	});

	it('a time-out after commit: retried with the same key and replayed', async () => {
		// Long enough that the replay answers the second attempt in time on a busy machine too.
		sandbox.faults.add({ tool: 'send_message', kind: 'delay', delayMs: 2_500 });
		const result = await clientFor(sandbox.apiKey, { timeoutMs: 1_000 }).client.callTool('send_message', qrSend('hi'));
		expect(result).toMatchObject({ attempts: 2, replayed: true });
	});

	it('rate_limited: waits Retry-After on the sandbox clock, then succeeds with the same key', async () => {
		const { client, sleeps } = clientFor(sandbox.apiKey);
		for (let i = 0; i < 5; i++) await client.callTool('send_message', qrSend(`burst ${i}`));
		const result = await client.callTool('send_message', qrSend('sixth'));
		expect(result.attempts).toBe(2);
		expect(sleeps).toHaveLength(1);
		expect(sleeps[0]).toBeGreaterThan(0);
		expect(sleeps[0]).toBeLessThanOrEqual(60_000);
		const sixth = sandbox.calls().filter((call) => call.idempotencyKey === result.idempotencyKey);
		expect(sixth.map((call) => call.errorCode ?? call.status)).toEqual(['rate_limited', 200]);
	});
});

describe('pacing against the sandbox limits', () => {
	it('300 writes meet zero 429s and take the minimum number of windows', async () => {
		const { client } = clientFor(sandbox.apiKey, { pacer: pacer(), ...noRetry });
		// Only the pacer's waits move the clock, so the count of windows does not depend on this machine's speed.
		sandbox.clock.setSpeed(0);
		try {
			for (let i = 0; i < 300; i++) {
				await client.callTool('create_campaign', { name: `c${i}`, templateName: 'order_update', templateLanguage: 'en', maxMessages: 10 });
			}
		} finally {
			sandbox.clock.setSpeed(1);
		}
		const calls = sandbox.calls();
		expect(calls).toHaveLength(300);
		expect(calls.every((call) => call.status === 200)).toBe(true);
		const elapsed = sandbox.clock.now() - START;
		expect(elapsed).toBeGreaterThanOrEqual(120_000);
		expect(elapsed).toBeLessThan(125_000);
	});
});

describe('pacing at the window boundary', () => {
	const campaign = (name: string) => ({ name, templateName: 'order_update', templateLanguage: 'en', maxMessages: 10 });

	/** The most calls the sandbox accepted within any one of its sliding minutes. */
	function busiestMinute(): number {
		const times = sandbox.calls().filter((call) => call.status === 200).map((call) => Date.parse(call.at));
		return Math.max(...times.map((end) => times.filter((time) => time > end - 60_000 && time <= end).length));
	}

	it('sends the 121st write exactly when the first leaves the service window, never earlier', async () => {
		// No safety margin, and the sandbox clock stands still except when the pacer waits: every wait ends on the boundary itself.
		sandbox.clock.setSpeed(0);
		onTestFinished(() => sandbox.clock.setSpeed(1));
		const exact = new Pacer({ now: () => sandbox.clock.now(), sleep: async (ms) => sandbox.clock.advance(ms), marginMs: 0 });
		const { client } = clientFor(sandbox.apiKey, { pacer: exact, ...noRetry });
		for (let i = 0; i < 250; i++) await client.callTool('create_campaign', campaign(`b${i}`));
		const calls = sandbox.calls();
		expect(calls.filter((call) => call.status !== 200)).toEqual([]);
		expect(busiestMinute()).toBe(120);
		expect(Date.parse(calls[120].at) - Date.parse(calls[0].at)).toBe(60_000);
		expect(Date.parse(calls[240].at) - Date.parse(calls[120].at)).toBe(60_000);
	});

	it('meets a 429 only when a write it did not make shares the window (the bench set-up did, on the same key)', async () => {
		const other = clientFor(sandbox.apiKey, noRetry).client;
		await other.callTool('create_campaign', campaign('set-up'));
		const { client } = clientFor(sandbox.apiKey, { pacer: pacer(), ...noRetry });
		const results = [];
		for (let i = 0; i < 120; i++) results.push(await client.callTool('create_campaign', campaign(`p${i}`)).then(() => 'ok', (error: errors.MessagingApiError) => error.code));
		expect(results.indexOf('rate_limited')).toBe(119);
	});
});

describe('listing and account', () => {
	it('getMe and a scoped tool listing with live schemas', async () => {
		const { client } = clientFor(sandbox.keys.member);
		const me = await client.getMe();
		expect(me.data.key.scopes).toEqual(['messenger.read', 'messenger.send']);
		const tools = (await client.listTools()).data;
		const names = tools.map((tool) => tool.name);
		expect(names).toContain('send_message');
		expect(names).toContain('list_conversations');
		expect(names).not.toContain('create_group');
		const listConversations = tools.find((tool) => tool.name === 'list_conversations');
		expect(listConversations?.access).toBe('read');
		expect(listConversations?.inputSchema).toMatchObject({ type: 'object' });
		const result = await client.callTool('list_conversations', {}, { access: listConversations?.access, inputSchema: listConversations?.inputSchema });
		expect(result.status).toBe(200);
	});

	it('manages webhook endpoints at the planned paths', async () => {
		const { webhooks } = clientFor(sandbox.apiKey).client;
		const created = (await webhooks.create({ url: 'http://127.0.0.1:9/hook', event_types: ['message.received'] })).data;
		expect(created.id).toMatch(/^we_/);
		expect(created.secret).toMatch(/^whsec_/);
		expect((await webhooks.list()).data.webhooks.map((endpoint) => endpoint.id)).toContain(created.id);
		expect((await webhooks.update(created.id, { event_types: ['message.sent'] })).data.event_types).toEqual(['message.sent']);
		expect((await webhooks.pause(created.id)).data.status).toBe('paused');
		expect((await webhooks.resume(created.id)).data.status).toBe('active');
		expect((await webhooks.rotateSecret(created.id)).data.secret).toMatch(/^whsec_/);
		expect(Array.isArray((await webhooks.listDeliveries(created.id)).data.deliveries)).toBe(true);
		expect((await webhooks.delete(created.id)).data).toMatchObject({ id: created.id, deleted: true });
	});
});
