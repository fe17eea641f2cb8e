import dns from 'node:dns';
import { createServer, type AddressInfo, type Server } from 'node:net';
import type { IHttpRequestOptions } from 'n8n-workflow';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { MessagingAutomationApi } from '../../credentials/MessagingAutomationApi.credentials';
import { errorFromResponse } from '../../nodes/shared/client/answer';
import { startSandbox, type SandboxHandle } from '../sandbox';
import { testCredential } from '../support/credentialTester';

const credential = new MessagingAutomationApi();
let sandbox: SandboxHandle;

beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => sandbox.stop());

/** Sends GET /api/v1/me the way n8n would: the credential's authenticate() decides the headers. */
async function getMe(data: Record<string, unknown>) {
	const options = await credential.authenticate({ baseUrl: sandbox.url, ...data }, {
		url: '/api/v1/me',
		method: 'GET',
		headers: { accept: 'application/json' },
	} as IHttpRequestOptions);
	const response = await request(`${sandbox.url}/api/v1/me`, {
		headers: options.headers as Record<string, string>,
	});
	return { status: response.statusCode, body: (await response.body.json()) as Record<string, any> };
}

describe('MessagingAutomationApi credential', () => {
	it('sends the key as a Bearer token by default', async () => {
		const { status, body } = await getMe({ apiKey: sandbox.keys.owner, authScheme: 'bearer' });
		expect(status).toBe(200);
		expect(body.account).toBeDefined();
	});

	it('sends the key alone in the custom header when chosen', async () => {
		const { status } = await getMe({
			apiKey: sandbox.keys.member,
			authScheme: 'header',
			headerName: 'X-API-Key',
		});
		expect(status).toBe(200);
	});

	it('is refused with invalid_api_key when the header name is not the one the service reads', async () => {
		const { status, body } = await getMe({
			apiKey: sandbox.keys.owner,
			authScheme: 'header',
			headerName: 'X-Token',
		});
		expect(status).toBe(401);
		expect(body.error.code).toBe('invalid_api_key');
	});

	it('keeps the headers it was given', async () => {
		const options = await credential.authenticate({ apiKey: 'k', authScheme: 'bearer' }, {
			url: '/x',
			headers: { 'Idempotency-Key': 'abcdefgh' },
		} as IHttpRequestOptions);
		expect(options.headers).toEqual({ 'Idempotency-Key': 'abcdefgh', Authorization: 'Bearer k' });
	});

	it.each([
		['revoked', 401],
		['lowPlan', 403],
	] as const)(
		'the %s key gets %i, which the credential test explains',
		async (persona, statusCode) => {
			const { status } = await getMe({ apiKey: sandbox.keys[persona], authScheme: 'bearer' });
			expect(status).toBe(statusCode);
			const rule = credential.test.rules?.find(
				(candidate) =>
					candidate.type === 'responseCode' && candidate.properties.value === statusCode,
			);
			expect(rule?.properties.message).toBeTruthy();
		},
	);

	it('never follows a redirect in the credential test: the key stays with the Base URL', () => {
		expect(credential.test.request).toMatchObject({
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		});
	});

	it('says what the nodes say for the same answer, word for word, once', () => {
		const rule = (status: number) =>
			credential.test.rules?.find(
				(candidate) => candidate.type === 'responseCode' && candidate.properties.value === status,
			)?.properties.message;
		const answer = (status: number, body: unknown) =>
			errorFromResponse({ status, headers: {}, body }).message;
		const revoked = {
			error: { code: 'invalid_api_key', message: 'The API key is invalid or revoked.' },
		};
		expect(rule(401)).toBe(answer(401, revoked));
		expect(rule(401)).not.toContain('invalid or revoked.');
		const lowPlan = { error: { code: 'plan_required', message: 'Upgrade to use the API.' } };
		expect(rule(403)).toMatch(new RegExp(`^${answer(403, lowPlan).replace(/[.()]/g, '\\$&')} `));
		expect(rule(404)).toBe(answer(404, '<html>Not Found</html>'));
	});
});

/** A loopback server that accepts connections and handles them with `onConnection`. */
async function tcpServer(onConnection: ConstructorParameters<typeof Server>[1]) {
	const server = createServer(onConnection).listen(0, '127.0.0.1');
	await new Promise((resolve) => server.once('listening', resolve));
	return { server, port: (server.address() as AddressInfo).port };
}

describe("the credential dialog's Test, as n8n runs the declared test request", () => {
	const hint = () => credential.properties.find((property) => property.name === 'baseUrl')?.hint;
	const run = (baseUrl: string, apiKey = sandbox.keys.owner, timeoutMs?: number) =>
		testCredential(credential, { apiKey, baseUrl, authScheme: 'bearer' }, { timeoutMs });

	it("passes with an active key, and gives the nodes' sentence for a rejected one (control)", async () => {
		expect(await run(sandbox.url)).toEqual(expect.objectContaining({ status: 'OK' }));
		expect(await run(sandbox.url, 'ma_sk_this_key_does_not_exist_0000000000')).toEqual({
			status: 'Error',
			message: errorFromResponse({
				status: 401,
				headers: {},
				body: { error: { code: 'invalid_api_key', message: 'The API key is invalid or revoked.' } },
			}).message,
		});
	});

	// n8n shows Node's bare code when no answer came; the Base URL's hint, shown under the field,
	// names each code these failures give and what to check.
	it('nothing listening at the port: ECONNREFUSED, which the hint names', async () => {
		// Port 9 (discard): no test listens there, and ports below 1024 are not handed out by the system.
		expect(await run('http://127.0.0.1:9')).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
		expect(hint()).toContain('ECONNREFUSED');
	});

	it('a host name that does not exist: ENOTFOUND, which the hint names', async () => {
		// The resolver's answer for an unknown name, given in this process: a real lookup would leave 127.0.0.1.
		const lookup = vi.spyOn(dns, 'lookup').mockImplementation(((
			hostname: string,
			...rest: unknown[]
		) => {
			const callback = rest.at(-1) as (error: Error) => void;
			const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
				code: 'ENOTFOUND',
				syscall: 'getaddrinfo',
				hostname,
			});
			process.nextTick(() => callback(error));
		}) as unknown as typeof dns.lookup);
		try {
			expect(await run('https://api.messaging-service.invalid')).toEqual({
				status: 'Error',
				message: 'ENOTFOUND',
			});
			expect(lookup).toHaveBeenCalledWith(
				'api.messaging-service.invalid',
				expect.anything(),
				expect.anything(),
			);
		} finally {
			lookup.mockRestore();
		}
		expect(hint()).toContain('ENOTFOUND');
	});

	it('https:// to a service that speaks plain HTTP (a failed TLS handshake): EPROTO, which the hint names', async () => {
		const { server, port } = await tcpServer((socket) =>
			socket.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n'),
		);
		try {
			expect(await run(`https://127.0.0.1:${port}`)).toEqual({
				status: 'Error',
				message: 'EPROTO',
			});
		} finally {
			server.close();
		}
		expect(hint()).toContain('EPROTO');
	});

	it('a service that never answers: ECONNABORTED at the time-out, which the hint names with "runs for minutes"', async () => {
		// Accepts and stays silent. n8n's limit for the dialog's test is 300 s; here it is shortened.
		const { server, port } = await tcpServer(() => undefined);
		try {
			expect(await run(`http://127.0.0.1:${port}`, sandbox.keys.owner, 200)).toEqual({
				status: 'Error',
				message: 'ECONNABORTED',
			});
		} finally {
			server.close();
		}
		expect(hint()).toMatch(/ECONNABORTED.*runs for minutes/);
	});
});
