import { describe, expect, it } from 'vitest';

import {
	ConnectionError,
	DailyLimitReachedError,
	InvalidApiKeyError,
	InvalidInputError,
	MessagingApiError,
	OutcomeUnknownError,
	RateLimitedError,
	TimeoutError,
	ToolError,
} from '../../../../nodes/shared/client/errors';
import { backoffDelay, DEFAULT_RETRY_OPTIONS, retryDecision } from '../../../../nodes/shared/client/retry';
import type { ScriptStep } from '../../../support/scriptedServer';
import { useScriptedClient } from '../../../support/testClient';

const OK: ScriptStep = { status: 200, body: { operation_id: 'op_1', ok: true } };
const KEY = 'retry-test-key-0001';

function apiError(status: number, code: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>): ScriptStep {
	return { status, body: { error: { code, message: `${code} happened`, ...extra } }, headers };
}

const fixture = useScriptedClient('mk_test_retry_key');
const client = (options: Parameters<typeof fixture.client>[0] = {}) => fixture.client({ timeoutMs: 2_000, ...options });

/** A write call whose schema has `idempotencyKey`, so the key travels in header and body. */
async function createCampaign(retryClient = client()) {
	return await retryClient.callTool(
		'create_campaign',
		{ name: 'Spring', templateName: 'spring_sale', templateLanguage: 'en', maxMessages: 10 },
		{ idempotencyKey: KEY },
	);
}

function keysSent() {
	return fixture.server.requests.map((request) => [request.headers['idempotency-key'], (request.body as { idempotencyKey?: string }).idempotencyKey]);
}

async function rejection(promise: Promise<unknown>): Promise<MessagingApiError> {
	const error = await promise.then(() => undefined, (thrown: unknown) => thrown);
	expect(error).toBeInstanceOf(MessagingApiError);
	return error as MessagingApiError;
}

describe('rate_limited', () => {
	it('waits Retry-After and retries with the same idempotency key in header and body', async () => {
		fixture.server.script([apiError(429, 'rate_limited', {}, { 'Retry-After': '2' }), apiError(429, 'rate_limited', {}, { 'Retry-After': '3' }), OK]);
		const result = await createCampaign();
		expect(result.attempts).toBe(3);
		expect(result.idempotencyKey).toBe(KEY);
		expect(fixture.sleeps).toEqual([2_000, 3_000]);
		expect(keysSent()).toEqual([[KEY, KEY], [KEY, KEY], [KEY, KEY]]);
		expect(new Set(fixture.server.requests.map((request) => request.rawBody)).size).toBe(1);
	});

	it('uses the body retry_after when the header is missing', async () => {
		fixture.server.script([apiError(429, 'rate_limited', { retry_after: 7 }), OK]);
		await createCampaign();
		expect(fixture.sleeps).toEqual([7_000]);
	});

	it('does not wait out a Retry-After beyond the cap: it reports it', async () => {
		fixture.server.script([apiError(429, 'rate_limited', {}, { 'Retry-After': '3600' }), OK]);
		const error = await rejection(createCampaign(client({ retry: { maxRetryAfterMs: 60_000 } })));
		expect(error).toBeInstanceOf(RateLimitedError);
		expect(error.retryAfter).toBe(3600);
		expect(error.attempts).toBe(1);
		expect(fixture.sleeps).toEqual([]);
		expect(fixture.server.requests).toHaveLength(1);
	});

	it('an option given as undefined keeps its default', async () => {
		fixture.server.script([apiError(429, 'rate_limited', {}, { 'Retry-After': '30' }), OK]);
		await createCampaign(client({ retry: { maxRetryAfterMs: undefined, maxAttempts: undefined } }));
		expect(fixture.sleeps).toEqual([30_000]);
	});

	it('a cap above the Retry-After lets it be waited', async () => {
		fixture.server.script([apiError(429, 'rate_limited', {}, { 'Retry-After': '90' }), OK]);
		await createCampaign(client({ retry: { maxRetryAfterMs: 120_000 } }));
		expect(fixture.sleeps).toEqual([90_000]);
	});

	it('backs off when no Retry-After is given at all', async () => {
		fixture.server.script([apiError(429, 'rate_limited'), OK]);
		await createCampaign();
		expect(fixture.sleeps).toEqual([250]);
	});
});

describe('transient failures back off exponentially with the same key', () => {
	it('tool_error 503', async () => {
		fixture.server.script([apiError(503, 'tool_error'), apiError(503, 'tool_error'), apiError(503, 'tool_error'), OK]);
		const result = await createCampaign();
		expect(result.attempts).toBe(4);
		// random() = 0.5: half of 500, 1000, 2000 ms.
		expect(fixture.sleeps).toEqual([250, 500, 1_000]);
		expect(new Set(keysSent().flat())).toEqual(new Set([KEY]));
	});

	it('a connection dropped after the request arrived', async () => {
		fixture.server.script([{ drop: true }, OK]);
		const attempts: number[] = [];
		const result = await createCampaign(client({ onAttempt: (info) => void attempts.push(info.attempt) }));
		expect(result.attempts).toBe(2);
		expect(attempts).toEqual([1, 2]);
		expect(fixture.server.requests).toHaveLength(2);
		expect(keysSent()).toEqual([[KEY, KEY], [KEY, KEY]]);
	});

	it('a time-out (the service may have acted: same key again)', async () => {
		fixture.server.script([{ hang: true }, OK]);
		// Long enough that the answer to the second attempt comes in time on a busy machine too.
		const result = await createCampaign(client({ timeoutMs: 1_000 }));
		expect(result.attempts).toBe(2);
		expect(keysSent()).toEqual([[KEY, KEY], [KEY, KEY]]);
	});

	it('a gateway page without an API code', async () => {
		fixture.server.script([{ status: 502, body: '<html>bad gateway</html>' }, OK]);
		expect((await createCampaign()).attempts).toBe(2);
	});

	it('gives up after maxAttempts with the last error and the attempt count', async () => {
		fixture.server.script([apiError(503, 'tool_error')]);
		const error = await rejection(createCampaign(client({ retry: { maxAttempts: 3 } })));
		expect(error).toBeInstanceOf(ToolError);
		expect(error.attempts).toBe(3);
		expect(error.idempotencyKey).toBe(KEY);
		expect(fixture.server.requests).toHaveLength(3);
	});

	it('exhausted time-outs surface as TimeoutError carrying the key, for a get_send_status lookup', async () => {
		fixture.server.script([{ hang: true }]);
		const error = await rejection(createCampaign(client({ timeoutMs: 100, retry: { maxAttempts: 2 } })));
		expect(error).toBeInstanceOf(TimeoutError);
		expect(error.idempotencyKey).toBe(KEY);
		expect(error.attempts).toBe(2);
	});

	it('exhausted dropped connections surface as ConnectionError', async () => {
		fixture.server.script([{ drop: true }]);
		const error = await rejection(createCampaign(client({ retry: { maxAttempts: 2 } })));
		expect(error).toBeInstanceOf(ConnectionError);
	});
});

describe('never retried', () => {
	const cases: Array<[string, ScriptStep, new (...args: never[]) => MessagingApiError]> = [
		['daily_limit_reached', apiError(429, 'daily_limit_reached', {}, { 'Retry-After': '600' }), DailyLimitReachedError],
		['outcome_unknown', apiError(409, 'outcome_unknown', { operation_id: 'op_9' }), OutcomeUnknownError],
		['invalid_input 400', apiError(400, 'invalid_input', { field: 'name' }), InvalidInputError],
		['invalid_api_key 401', apiError(401, 'invalid_api_key'), InvalidApiKeyError],
		['tool_error 422', apiError(422, 'tool_error'), ToolError],
	];
	it.each(cases)('%s', async (_name, step, ErrorClass) => {
		fixture.server.script([step, OK]);
		const error = await rejection(createCampaign());
		expect(error).toBeInstanceOf(ErrorClass);
		expect(error.attempts).toBe(1);
		expect(fixture.server.requests).toHaveLength(1);
		expect(fixture.sleeps).toEqual([]);
	});
});

describe('policy functions', () => {
	it('full jitter stays within [0, min(max, base * 2^(n-1)))', () => {
		const options = { ...DEFAULT_RETRY_OPTIONS, baseDelayMs: 100, maxDelayMs: 1_000 };
		expect(backoffDelay(1, options, () => 0)).toBe(0);
		expect(backoffDelay(1, options, () => 0.999)).toBe(99);
		expect(backoffDelay(3, options, () => 0.999)).toBe(399);
		expect(backoffDelay(10, options, () => 0.999)).toBe(999);
	});

	it('stops at maxAttempts whatever the error', () => {
		const error = new ToolError('x', { code: 'tool_error', status: 503 });
		expect(retryDecision(error, 4, { ...DEFAULT_RETRY_OPTIONS, maxAttempts: 5 }, () => 0)).toEqual({ retry: true, delayMs: 0 });
		expect(retryDecision(error, 5, { ...DEFAULT_RETRY_OPTIONS, maxAttempts: 5 }, () => 0)).toEqual({ retry: false });
	});
});
