import { NodeApiError } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MessagingClient } from '../../../../nodes/shared/client/client';
import { mayHaveActed } from '../../../../nodes/shared/client/errorRules';
import {
	ConnectionError,
	InvalidApiKeyError,
	MessagingApiError,
	ProtocolError,
	TimeoutError,
} from '../../../../nodes/shared/client/errors';
import type { Transport } from '../../../../nodes/shared/client/transport';
import {
	createHttpRequestTransport,
	mapRequestFailure,
	trimBaseUrl,
} from '../../../../nodes/shared/transport/httpRequestTransport';
import { startKeyTrap } from '../../../support/keyTrap';
import { credentialProbe, probeNode } from '../../../support/credentialProbe';
import { type ScriptedServer, startScriptedServer } from '../../../support/scriptedServer';

const API_KEY = 'mk_live_n8nTransportSecret_42';

let server: ScriptedServer;

beforeAll(async () => {
	server = await startScriptedServer([{ status: 200, body: { ok: true } }]);
});
afterAll(async () => {
	await server.stop();
});

/** The transport over a real n8n-core context (LoadOptionsContext) and its real request helper. */
async function n8nTransport(credential: Record<string, string> = {}): Promise<Transport> {
	const context = credentialProbe({
		apiKey: API_KEY,
		baseUrl: `${server.url}//`,
		authScheme: 'bearer',
		...credential,
	});
	server.requests.length = 0;
	return await createHttpRequestTransport(context);
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
	return await promise.then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
}

describe('createHttpRequestTransport over n8n-core', () => {
	it('sends through the credential to the trimmed base URL, with a JSON body even when empty', async () => {
		const transport = await n8nTransport();
		server.script([{ status: 200, body: { ok: true }, headers: { 'X-Request-Id': 'req_1' } }]);
		const response = await transport({
			method: 'POST',
			path: '/api/v1/tools/get_account_context',
			body: {},
			headers: { 'Idempotency-Key': 'k-12345678' },
			timeoutMs: 5_000,
		});
		expect(response).toMatchObject({ status: 200, body: { ok: true } });
		expect(response.headers['x-request-id']).toBe('req_1');
		const [request] = server.requests;
		expect(request).toMatchObject({
			method: 'POST',
			path: '/api/v1/tools/get_account_context',
			rawBody: '{}',
		});
		expect(request.headers).toMatchObject({
			authorization: `Bearer ${API_KEY}`,
			'content-type': 'application/json',
			'idempotency-key': 'k-12345678',
		});
	});

	it('sends the key in a custom header when the credential says so, and GETs without a body', async () => {
		const transport = await n8nTransport({ authScheme: 'header', headerName: 'X-Api-Token' });
		await transport({ method: 'GET', path: '/api/v1/me', timeoutMs: 5_000 });
		const [request] = server.requests;
		expect(request.headers['x-api-token']).toBe(API_KEY);
		expect(request.headers.authorization).toBeUndefined();
		expect(request.rawBody).toBe('');
	});

	it('resolves error statuses instead of throwing, with headers, JSON or text bodies', async () => {
		const transport = await n8nTransport();
		server.script([
			{
				status: 429,
				body: { error: { code: 'rate_limited', message: 'slow' } },
				headers: { 'Retry-After': '4' },
			},
			{ status: 502, body: '<html>gateway</html>' },
			{ status: 401 },
		]);
		const request = {
			method: 'POST' as const,
			path: '/api/v1/tools/x',
			body: {},
			timeoutMs: 5_000,
		};
		const limited = await transport(request);
		expect(limited).toMatchObject({ status: 429, body: { error: { code: 'rate_limited' } } });
		expect(limited.headers['retry-after']).toBe('4');
		expect(await transport(request)).toMatchObject({ status: 502, body: '<html>gateway</html>' });
		expect((await transport(request)).body).toBeUndefined();
	});

	it('removes the API key from anything the service echoes back', async () => {
		const transport = await n8nTransport();
		server.script([
			{
				status: 401,
				body: { error: { code: 'invalid_api_key', message: `Key ${API_KEY} revoked` } },
				headers: { 'X-Echo': API_KEY },
			},
		]);
		const response = await transport({ method: 'GET', path: '/api/v1/me', timeoutMs: 5_000 });
		expect(JSON.stringify(response)).not.toContain(API_KEY);
	});

	it('maps a dropped connection, a time-out and a refused connection to typed errors without the key', async () => {
		const transport = await n8nTransport();
		const request = { method: 'POST' as const, path: '/api/v1/tools/x', body: {}, timeoutMs: 300 };
		server.script([{ drop: true }]);
		const dropped = await failure(transport(request));
		expect(dropped).toBeInstanceOf(ConnectionError);
		server.script([{ hang: true }]);
		const timedOut = await failure(transport(request));
		expect(timedOut).toBeInstanceOf(TimeoutError);
		expect((timedOut as Error).message).toContain('300 ms');

		const closed = await startScriptedServer();
		await closed.stop();
		const refusedTransport = await createHttpRequestTransport(
			credentialProbe({ apiKey: API_KEY, baseUrl: closed.url, authScheme: 'bearer' }),
		);
		const refused = await failure(refusedTransport(request));
		expect(refused).toBeInstanceOf(ConnectionError);
		expect((refused as Error).message).toContain('(connection refused)');
		expect((refused as MessagingApiError).networkCode).toBe('ECONNREFUSED');
		for (const error of [dropped, timedOut, refused]) {
			expect(
				JSON.stringify({
					...(error as object),
					message: (error as Error).message,
					stack: (error as Error).stack,
				}),
			).not.toContain(API_KEY);
		}
	});

	it('gives up on a slow-drip answer at the time-out, though bytes keep arriving', async () => {
		const transport = await n8nTransport();
		// 40 bytes at one per 50 ms take 2 s; each byte comes well inside the 300 ms time-out.
		server.script([{ drip: { everyMs: 50, body: { ok: true, padding: 'x'.repeat(20) } } }]);
		const slow = await failure(
			transport({ method: 'POST', path: '/api/v1/tools/x', body: {}, timeoutMs: 300 }),
		);
		expect(slow).toBeInstanceOf(TimeoutError);
		expect((slow as Error).message).toContain('300 ms');
	});

	it('drives the MessagingClient: typed errors and retries with the same key through n8n', async () => {
		const client = new MessagingClient({
			transport: await n8nTransport(),
			sleep: async () => {},
			random: () => 0,
		});
		server.script([
			{ status: 503, body: { error: { code: 'tool_error', message: 'busy' } } },
			{ drop: true },
			{ status: 200, body: { operation_id: 'op_1' } },
		]);
		const result = await client.callTool(
			'cancel_campaign',
			{ campaignId: 'c' },
			{ idempotencyKey: 'n8n-retry-key-1' },
		);
		expect(result).toMatchObject({ attempts: 3, data: { operation_id: 'op_1' } });
		expect(server.requests.map((request) => request.headers['idempotency-key'])).toEqual([
			'n8n-retry-key-1',
			'n8n-retry-key-1',
			'n8n-retry-key-1',
		]);
		server.script([
			{ status: 401, body: { error: { code: 'invalid_api_key', message: 'revoked' } } },
		]);
		await expect(client.getMe()).rejects.toBeInstanceOf(InvalidApiKeyError);
	});
});

describe('secrets on the way out', () => {
	it('never follows a redirect of an API call: the key and the body stay with the service', async () => {
		const trap = await startKeyTrap([API_KEY, 'secret body']);
		try {
			const client = new MessagingClient({
				transport: await n8nTransport(),
				sleep: async () => {},
				retry: { maxAttempts: 1 },
			});
			for (const status of [302, 307, 308]) {
				server.script([{ status, headers: { Location: `${trap.url}/api/v1/tools/send_message` } }]);
				const error = await failure(
					client.callTool(
						'send_message',
						{ text: 'secret body' },
						{ idempotencyKey: 'n8n-redirect-key' },
					),
				);
				expect(error).toBeInstanceOf(ProtocolError);
				expect(error).toMatchObject({
					code: 'unexpected_redirect',
					status,
					actionTaken: 'unknown',
				});
			}
			expect(trap.requests).toBe(0);
		} finally {
			await trap.stop();
		}
	});

	it('keeps user info and query tokens of the Base URL out of errors', async () => {
		const closed = await startScriptedServer();
		await closed.stop();
		const withSecrets =
			closed.url.replace('http://', 'http://admin:pa55word-x@') + '/?token=tok-123456789';
		const transport = await createHttpRequestTransport(
			credentialProbe({ apiKey: API_KEY, baseUrl: withSecrets, authScheme: 'bearer' }),
		);
		const refused = (await failure(
			transport({ method: 'GET', path: '/api/v1/me', timeoutMs: 1_000 }),
		)) as Error;
		expect(refused).toBeInstanceOf(ConnectionError);
		expect(refused.message).toContain(closed.url);
		for (const secret of ['pa55word-x', 'tok-123456789', 'admin:'])
			expect(refused.message).not.toContain(secret);
	});
});

describe('a Base URL with the wrong scheme, over n8n-core', () => {
	it('https:// to a service that speaks plain HTTP: a failed TLS handshake, in words, nothing sent', async () => {
		const transport = await n8nTransport({ baseUrl: server.url.replace('http://', 'https://') });
		const request = {
			method: 'POST' as const,
			path: '/api/v1/tools/x',
			body: {},
			timeoutMs: 5_000,
		};
		const failed = (await failure(transport(request))) as MessagingApiError;
		expect(failed.code).toBe('tls_failed');
		expect(failed.message).toMatch(
			/^The secure connection to https:\/\/127\.0\.0\.1:\d+ failed \(.+\)\. Check the credential's Base URL: https:\/\/ only where the service speaks TLS/,
		);
		expect(failed.networkCode).toBeTruthy();
		expect(mayHaveActed(failed)).toBe(false);
	});
});

describe('mapRequestFailure', () => {
	const node = probeNode;
	const coded = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

	it.each([
		[
			'ECONNRESET wrapped by NodeApiError',
			new NodeApiError(node, coded('ECONNRESET') as never),
			ConnectionError,
		],
		['ECONNREFUSED', coded('ECONNREFUSED'), ConnectionError],
		['EPIPE', coded('EPIPE'), ConnectionError],
		['ENOTFOUND (wrong host)', coded('ENOTFOUND'), ConnectionError],
		['ECONNABORTED without a time-out', coded('ECONNABORTED', 'aborted'), ConnectionError],
		[
			'axios time-out (ECONNABORTED)',
			new NodeApiError(node, coded('ECONNABORTED', 'timeout of 300ms exceeded') as never),
			TimeoutError,
		],
		['ETIMEDOUT', coded('ETIMEDOUT'), TimeoutError],
		['undici headers time-out', coded('UND_ERR_HEADERS_TIMEOUT'), TimeoutError],
		['"socket hang up" without a code', new Error('socket hang up'), ConnectionError],
		[
			'a deep cause chain',
			new Error('outer', { cause: new Error('middle', { cause: coded('ECONNRESET') }) }),
			ConnectionError,
		],
	])('%s', (_name, error, ErrorClass) => {
		expect(mapRequestFailure(error, 300)).toBeInstanceOf(ErrorClass);
	});

	it('leaves failures that are not network failures alone', () => {
		expect(mapRequestFailure(coded('ERR_CANCELED', 'canceled'), 300)).toBeUndefined();
		expect(mapRequestFailure(new Error('Node does not have credentials'), 300)).toBeUndefined();
		expect(mapRequestFailure('text', 300)).toBeUndefined();
	});

	it('a failure after the response headers (the body broke off) is an interrupted answer, not a raw error', () => {
		const midBody = Object.assign(coded('ERR_BAD_RESPONSE', 'stream has been aborted'), {
			response: { status: 200 },
		});
		const mapped = mapRequestFailure(new NodeApiError(node, midBody as never), 300);
		expect(mapped).toBeInstanceOf(ConnectionError);
		expect(mapped?.code).toBe('response_interrupted');
		expect(mapped?.message).toMatch(/may still have taken effect/);
	});

	it('a connection never made (refused, unknown host, a name not looked up just now, failed TLS handshake) is the one connection failure that proves nothing was sent', () => {
		const never = {
			ECONNREFUSED: 'connection_refused',
			ENOTFOUND: 'host_not_found',
			EAI_AGAIN: 'lookup_failed',
			EPROTO: 'tls_failed',
			ERR_SSL_WRONG_VERSION_NUMBER: 'tls_failed',
			DEPTH_ZERO_SELF_SIGNED_CERT: 'tls_failed',
			CERT_HAS_EXPIRED: 'tls_failed',
			ERR_TLS_CERT_ALTNAME_INVALID: 'tls_failed',
		};
		for (const [code, expected] of Object.entries(never)) {
			const mapped = mapRequestFailure(coded(code), 300, 'https://api.example.test');
			expect({ code, mapped: mapped?.code }).toEqual({ code, mapped: expected });
			expect(mapped?.message).toContain('https://api.example.test');
			expect(mapped?.networkCode).toBe(code);
			// n8n swaps a node error's message that names one of its common codes for its own words.
			for (const common of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'])
				expect(mapped?.message).not.toContain(common);
			expect(mapped?.message).toMatch(/Check .*Base URL.*Nothing reached the service\.$/);
			expect(mayHaveActed(mapped!)).toBe(false);
		}
		expect(mapRequestFailure(coded('ECONNRESET'), 300)?.code).toBe('connection_error');
	});

	it('a time-out names the Base URL, what to check, and that the call may still have acted', () => {
		const mapped = mapRequestFailure(coded('ETIMEDOUT'), 30_000, 'https://api.example.test');
		expect(mapped?.message).toBe(
			'No answer from https://api.example.test within 30 s. Check that the Base URL points at the service and that it is reachable from n8n. The call may still have taken effect: retry only with the same idempotency key, or check it with Other › Get Operation Outcome (or Message › Get Status).',
		);
		expect(mayHaveActed(mapped!)).toBe(true);
	});

	it('never carries the original message (which may hold request details)', () => {
		const mapped = mapRequestFailure(coded('ECONNRESET', `auth ${API_KEY}`), 300);
		expect(mapped).toBeInstanceOf(MessagingApiError);
		expect(mapped?.message).not.toContain(API_KEY);
	});

	it('trims base URLs', () => {
		expect(trimBaseUrl(' https://api.test/// ')).toBe('https://api.test');
		expect(trimBaseUrl('https://api.test')).toBe('https://api.test');
	});
});
