import { describe, expect, it } from 'vitest';

import { finalWriteError, readResponse } from '../../../../nodes/shared/client/answer';
import { mayHaveActed } from '../../../../nodes/shared/client/errorRules';
import {
	ConnectionError,
	connectionError,
	MessagingApiError,
	ProtocolError,
	ToolError,
	UncertainOutcomeError,
} from '../../../../nodes/shared/client/errors';
import { useScriptedClient } from '../../../support/testClient';

const KEY = 'mk_test_answer_key';
const fixture = useScriptedClient(KEY);
const failure = async (promise: Promise<unknown>) =>
	await promise.then(
		() => undefined,
		(thrown: unknown) => thrown as MessagingApiError,
	);

describe('readResponse: what a response means', () => {
	const response = (status: number, body: unknown) => ({ status, headers: {}, body });

	it('accepts a 2xx only with a JSON object: a page or JSON of another shape came from something else, a body cut off or empty is incomplete', () => {
		expect(readResponse(response(200, { ok: true }), {})).toEqual({ ok: true, data: { ok: true } });
		for (const [body, what, code] of [
			['<html><body>Sign in</body></html>', 'an HTML page', 'invalid_response'],
			[[1, 2], 'a JSON array', 'invalid_response'],
			[42, 'a JSON number', 'invalid_response'],
			['{"message_id":"msg_1","sta', 'text that is not JSON', 'incomplete_response'],
			[undefined, 'an empty body', 'incomplete_response'],
			[null, 'null', 'incomplete_response'],
		] as const) {
			const answer = readResponse(response(200, body), { tool: 'send_message' });
			expect(answer.ok).toBe(false);
			if (!answer.ok) {
				expect(answer.error).toBeInstanceOf(ProtocolError);
				expect({ what, code: answer.error.code }).toEqual({ what, code });
				expect(answer.error.message).toContain(what);
				expect(mayHaveActed(answer.error)).toBe(true);
			}
		}
	});

	it('takes a bare JSON array from a GET listing only', () => {
		expect(readResponse(response(200, [{ name: 'send_message' }]), {}, true)).toEqual({
			ok: true,
			data: [{ name: 'send_message' }],
		});
		expect(readResponse(response(200, [{ name: 'send_message' }]), {}).ok).toBe(false);
	});

	it('treats every 3xx as an answer the API does not give', () => {
		const answer = readResponse(
			{ status: 302, headers: { location: 'http://elsewhere/' }, body: undefined },
			{},
		);
		expect(answer.ok || answer.error.code).toBe('unexpected_redirect');
	});

	it('leaves API errors to errorFromResponse', () => {
		const answer = readResponse(
			response(503, { error: { code: 'tool_error', message: 'busy' } }),
			{},
		);
		expect(answer.ok || answer.error).toBeInstanceOf(ToolError);
	});
});

describe('mayHaveActed', () => {
	it('is true for everything after the request may have been read, false for refusals', () => {
		expect(mayHaveActed(connectionError('reset', undefined, 'response_interrupted'))).toBe(true);
		expect(mayHaveActed(connectionError('reset'))).toBe(true);
		expect(mayHaveActed(connectionError('refused', undefined, 'connection_refused'))).toBe(false);
		expect(mayHaveActed(new ProtocolError('html', { code: 'invalid_response' }))).toBe(true);
		expect(mayHaveActed(new MessagingApiError('gateway', { code: 'http_502', status: 502 }))).toBe(
			true,
		);
		expect(mayHaveActed(new ToolError('busy', { code: 'tool_error', status: 503 }))).toBe(false);
		expect(mayHaveActed(new MessagingApiError('odd', { code: 'http_404', status: 404 }))).toBe(
			false,
		);
	});

	it('a definitive last answer after an uncertain attempt is still uncertain', () => {
		const earlier = connectionError('reset');
		const last = new ToolError('The service is temporarily unavailable. Try again in a moment.', {
			code: 'tool_error',
			status: 503,
		});
		const final = finalWriteError(last, earlier);
		expect(final).toBeInstanceOf(UncertainOutcomeError);
		expect(final).toMatchObject({ code: 'outcome_uncertain', actionTaken: 'unknown', status: 503 });
		expect(
			finalWriteError(new ToolError('x', { code: 'tool_error', status: 503 }), undefined)
				.actionTaken,
		).toBe('no');
	});
});

describe('the request loop under answers the API does not give', () => {
	it('retries a 200 HTML page, truncated JSON, an empty body and null with the same key, then succeeds', async () => {
		fixture.server.script([
			{ status: 200, body: '<html>portal</html>' },
			{ status: 200, body: '{"message_id":"m' },
			{ status: 200 },
			{ status: 200, body: 'null', headers: { 'content-type': 'application/json' } },
			{ status: 200, body: { message_id: 'msg_1', status: 'accepted' } },
		]);
		const client = fixture.client();
		const result = await client.callTool(
			'send_message',
			{ text: 'hi' },
			{ idempotencyKey: 'n8n-answer-key-1' },
		);
		expect(result).toMatchObject({ attempts: 5, data: { message_id: 'msg_1' } });
		expect(
			new Set(fixture.server.requests.map((request) => request.headers['idempotency-key'])),
		).toEqual(new Set(['n8n-answer-key-1']));
	});

	it('a dropped connection after the commit, then 503s: the write ends uncertain, not "try again"', async () => {
		fixture.server.script([
			{ drop: true },
			{ status: 503, body: { error: { code: 'tool_error', message: 'busy' } } },
		]);
		const error = await failure(
			fixture
				.client()
				.callTool('send_message', { text: 'hi' }, { idempotencyKey: 'n8n-answer-key-2' }),
		);
		expect(error).toBeInstanceOf(UncertainOutcomeError);
		expect(error).toMatchObject({
			code: 'outcome_uncertain',
			actionTaken: 'unknown',
			attempts: 5,
			idempotencyKey: 'n8n-answer-key-2',
		});
		expect(error?.message).toMatch(/not known whether the call took effect/);
	});

	it('a write refused on every attempt says it was not done; a read says nothing about actions', async () => {
		fixture.server.script([
			{ status: 503, body: { error: { code: 'tool_error', message: 'busy' } } },
		]);
		const write = await failure(
			fixture
				.client()
				.callTool('send_message', { text: 'hi' }, { idempotencyKey: 'n8n-answer-key-3' }),
		);
		expect(write).toMatchObject({ code: 'tool_error', actionTaken: 'no' });
		const read = await failure(fixture.client().callTool('get_account_context'));
		expect(read).toBeInstanceOf(ToolError);
		expect(read?.actionTaken).toBeUndefined();
	});

	it('still lists tools from a service that answers GET /api/v1/tools with a bare array', async () => {
		fixture.server.script([
			{
				status: 200,
				body: [{ name: 'send_message', access: 'write', input_schema: { type: 'object' } }],
			},
		]);
		const { data } = await fixture.client().listTools();
		expect(data.map((tool) => tool.name)).toEqual(['send_message']);
	});

	it('a single dropped connection is uncertain', async () => {
		fixture.server.script([{ drop: true }]);
		const error = await failure(
			fixture
				.client({ retry: { maxAttempts: 1 } })
				.callTool('send_message', { text: 'hi' }, { idempotencyKey: 'n8n-answer-key-4' }),
		);
		expect(error).toBeInstanceOf(ConnectionError);
		expect(error?.actionTaken).toBe('unknown');
	});
});
