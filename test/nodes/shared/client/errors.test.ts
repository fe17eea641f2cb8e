import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
	DailyLimitReachedError,
	formatDuration,
	InsufficientPermissionError,
	InvalidApiKeyError,
	InvalidInputError,
	MessagingApiError,
	OutcomeUnknownError,
	PlanRequiredError,
	RateLimitedError,
	ToolError,
	UnknownToolError,
	WhatsappNotConnectedError,
} from '../../../../nodes/shared/client/errors';
import { errorFromResponse } from '../../../../nodes/shared/client/answer';
import { redactSecrets } from '../../../../nodes/shared/client/redaction';
import {
	type ScriptedServer,
	type ScriptStep,
	startScriptedServer,
} from '../../../support/scriptedServer';
import { testClient, type TestClient } from '../../../support/testClient';

const API_KEY = 'mk_live_Sup3rSecretKeyValue_0123456789';

function apiError(
	status: number,
	error: Record<string, unknown>,
	headers?: Record<string, string>,
): ScriptStep {
	return { status, body: { error }, headers };
}

let server: ScriptedServer;
let harness: TestClient;

beforeAll(async () => {
	server = await startScriptedServer();
	harness = testClient(server.url, API_KEY, { retry: { maxAttempts: 1 } });
});
afterAll(async () => {
	await harness.close();
	await server.stop();
});

async function failureOf(
	step: ScriptStep,
	tool = 'get_account_context',
): Promise<MessagingApiError> {
	server.script([step]);
	const error = await harness.client.callTool(tool).then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
	expect(error).toBeInstanceOf(MessagingApiError);
	return error as MessagingApiError;
}

describe('errorFromResponse over HTTP: every documented code becomes its class', () => {
	const cases: Array<[string, number, new (...args: never[]) => MessagingApiError]> = [
		['invalid_api_key', 401, InvalidApiKeyError],
		['insufficient_permission', 403, InsufficientPermissionError],
		['plan_required', 403, PlanRequiredError],
		['unknown_tool', 404, UnknownToolError],
		['invalid_input', 400, InvalidInputError],
		['invalid_input', 413, InvalidInputError],
		['invalid_input', 415, InvalidInputError],
		['rate_limited', 429, RateLimitedError],
		['daily_limit_reached', 429, DailyLimitReachedError],
		['whatsapp_not_connected', 409, WhatsappNotConnectedError],
		['tool_error', 422, ToolError],
		['tool_error', 503, ToolError],
		['outcome_unknown', 409, OutcomeUnknownError],
	];

	it.each(cases)('%s (HTTP %i)', async (code, status, ErrorClass) => {
		const error = await failureOf(apiError(status, { code, message: `server says ${code}` }));
		expect(error).toBeInstanceOf(ErrorClass);
		expect(error.code).toBe(code);
		expect(error.status).toBe(status);
		expect(error.requestId).toMatch(/^req_scripted_\d+$/);
		// The service's words are kept; the message quotes them unless they only repeat its cause.
		expect(error.serviceMessage).toBe(`server says ${code}`);
		if (!['invalid_api_key', 'plan_required', 'insufficient_permission'].includes(code))
			expect(error.message).toContain(`server says ${code}`);
		expect(error.attempts).toBe(1);
		expect(error.name).toBe(ErrorClass.name);
	});

	it('rate_limited carries Retry-After from the header, else from the body', async () => {
		const fromHeader = await failureOf(
			apiError(
				429,
				{ code: 'rate_limited', message: 'slow down', retry_after: 99 },
				{ 'Retry-After': '12' },
			),
		);
		expect(fromHeader.retryAfter).toBe(12);
		expect(fromHeader.message).toContain('in 12 s');
		const fromBody = await failureOf(
			apiError(429, { code: 'rate_limited', message: 'slow down', retry_after: 30 }),
		);
		expect(fromBody.retryAfter).toBe(30);
	});

	it('plan_required carries and names the upgrade URL', async () => {
		const error = await failureOf(
			apiError(403, {
				code: 'plan_required',
				message: 'Upgrade needed.',
				upgrade_url: 'https://example.test/pricing',
			}),
		);
		expect(error.upgradeUrl).toBe('https://example.test/pricing');
		expect(error.message).toContain('https://example.test/pricing');
	});

	it('daily_limit_reached says the counter resets at 00:00 UTC and in how long', async () => {
		const error = await failureOf(
			apiError(
				429,
				{ code: 'daily_limit_reached', message: 'Daily limit of 50 sends reached.' },
				{ 'Retry-After': String(5 * 3600 + 11 * 60 + 30) },
			),
			'send_message',
		);
		expect(error).toBeInstanceOf(DailyLimitReachedError);
		expect(error.retryAfter).toBe(18_690);
		expect(error.message).toContain('00:00 UTC');
		expect(error.message).toContain('in 5 h 12 min');
	});

	it('insufficient_permission names the scope from the body, the message, or the tool', async () => {
		const fromField = await failureOf(
			apiError(403, { code: 'insufficient_permission', message: 'no', scope: 'messenger.groups' }),
		);
		expect(fromField.scope).toBe('messenger.groups');
		expect(fromField.message).toContain('"messenger.groups"');
		const fromText = await failureOf(
			apiError(403, {
				code: 'insufficient_permission',
				message: 'The key lacks messenger.webhooks:manage.',
			}),
		);
		expect(fromText.scope).toBe('messenger.webhooks:manage');
		const fromTool = await failureOf(
			apiError(403, { code: 'insufficient_permission', message: 'Missing scope.' }),
			'create_group',
		);
		expect(fromTool.scope).toBe('messenger.groups');
	});

	it('invalid_input and outcome_unknown carry field and operation id', async () => {
		const invalid = await failureOf(
			apiError(400, { code: 'invalid_input', message: 'bad', field: 'recipients[3].phoneNumber' }),
		);
		expect(invalid.field).toBe('recipients[3].phoneNumber');
		expect(invalid.message).toContain('recipients[3].phoneNumber');
		const unknown = await failureOf(
			apiError(409, { code: 'outcome_unknown', message: 'uncertain', operation_id: 'op_123' }),
		);
		expect(unknown.operationId).toBe('op_123');
		expect(unknown.message).toMatch(/Get Operation Outcome \(or Message › Get Status\)/);
		expect(unknown.message).toContain('op_123');
	});

	it('tool_error asks to quote the request id', async () => {
		const error = await failureOf(
			apiError(422, { code: 'tool_error', message: 'provider said no' }),
		);
		expect(error.message).toContain(error.requestId);
	});

	it('an undocumented code lands on the base class with its code kept', async () => {
		const error = await failureOf(apiError(418, { code: 'teapot', message: 'short and stout' }));
		expect(Object.getPrototypeOf(error)).toBe(MessagingApiError.prototype);
		expect(error.code).toBe('teapot');
		expect(error.message).toContain('HTTP 418');
	});

	it('a non-JSON error body (a proxy page) still gives a typed error with its text', async () => {
		const error = await failureOf({ status: 502, body: '<html>Bad Gateway</html>' });
		expect(Object.getPrototypeOf(error)).toBe(MessagingApiError.prototype);
		expect(error.code).toBe('http_502');
		expect(error.status).toBe(502);
		expect(error.message).toContain('Bad Gateway');
	});

	it('the API key never appears in messages or bodies, even when the server echoes it', async () => {
		const error = await failureOf(
			apiError(401, {
				code: 'invalid_api_key',
				message: `Key ${API_KEY} is revoked`,
				field: API_KEY,
			}),
		);
		expect(error.message).not.toContain(API_KEY);
		expect(JSON.stringify(error.body)).not.toContain(API_KEY);
		expect(error.field).not.toContain(API_KEY);
		expect(error.serviceMessage).toContain('[redacted]');
	});
});

describe('errorFromResponse without HTTP', () => {
	it('takes an object error without a code as unknown_error and an empty body as http_<status>', () => {
		expect(
			errorFromResponse({ status: 500, headers: {}, body: { error: { message: 'x' } } }).code,
		).toBe('unknown_error');
		const empty = errorFromResponse({ status: 504, headers: {}, body: undefined });
		expect(empty.code).toBe('http_504');
		expect(empty.message).toContain('HTTP 504');
	});

	it('redacts a key that JSON escapes (quotes, backslashes, control characters) in text and in bodies', () => {
		const key = 'mk_"quoted\\slash\ttab';
		const echoed = {
			error: { code: 'invalid_api_key', message: `Key ${key} revoked`, detail: { key } },
		};
		const error = errorFromResponse({ status: 401, headers: {}, body: echoed }, { secrets: [key] });
		expect(error.message).not.toContain(key);
		expect(JSON.stringify(error.body)).not.toContain(JSON.stringify(key).slice(1, -1));
		expect(JSON.stringify(error.body)).toContain('[redacted]');
		expect(redactSecrets(`raw ${JSON.stringify(key)} and ${key}`, [key])).toBe(
			'raw "[redacted]" and [redacted]',
		);
	});

	it('redacts secrets given in the context', () => {
		const error = errorFromResponse(
			{
				status: 400,
				headers: {},
				body: { error: { code: 'invalid_input', message: 'echo abc-secret-xyz' } },
			},
			{ secrets: ['abc-secret-xyz'] },
		);
		expect(error.message).not.toContain('abc-secret-xyz');
		expect(error.serviceMessage).toBe('echo [redacted]');
	});

	it('formats durations for messages', () => {
		expect(formatDuration(0.25)).toBe('250 ms');
		expect(formatDuration(45)).toBe('45 s');
		expect(formatDuration(61)).toBe('2 min');
		expect(formatDuration(3600)).toBe('1 h');
		expect(formatDuration(3 * 3600 + 5 * 60)).toBe('3 h 5 min');
	});
});
