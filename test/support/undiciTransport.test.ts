import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ConnectionError, TimeoutError } from '../../nodes/shared/client/errors';
import { startSandbox, type SandboxHandle } from '../sandbox';
import { startScriptedServer } from './scriptedServer';
import { createUndiciTransport } from './undiciTransport';

let sandbox: SandboxHandle;

beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => {
	await sandbox.stop();
});

describe('createUndiciTransport', () => {
	it('authenticates with a bearer token or the key alone in a header, and trims the base URL', async () => {
		for (const scheme of ['bearer', 'header'] as const) {
			const transport = createUndiciTransport({
				baseUrl: `${sandbox.url}/`,
				apiKey: sandbox.keys.member,
				authScheme: scheme,
			});
			const response = await transport({ method: 'GET', path: '/api/v1/me', timeoutMs: 5_000 });
			expect(response.status).toBe(200);
			expect(response.headers['x-request-id']).toMatch(/^req_/);
			expect((response.body as { key: { name: string } }).key.name).toBe('member');
			await transport.close();
		}
	});

	it('resolves error statuses and removes the key from echoed answers', async () => {
		const apiKey = 'mk_echoed_secret_987654';
		const server = await startScriptedServer([
			{ status: 400, body: { error: { code: 'invalid_input', message: `bad ${apiKey}` } } },
		]);
		const transport = createUndiciTransport({ baseUrl: server.url, apiKey });
		const response = await transport({
			method: 'POST',
			path: '/api/v1/tools/x',
			body: {},
			timeoutMs: 5_000,
		});
		expect(response.status).toBe(400);
		expect(JSON.stringify(response)).not.toContain(apiKey);
		expect(server.requests[0].headers.authorization).toBe(`Bearer ${apiKey}`);
		await transport.close();
		await server.stop();
	});

	it('rejects with TimeoutError or ConnectionError when no answer comes', async () => {
		const server = await startScriptedServer([{ hang: true }]);
		const transport = createUndiciTransport({ baseUrl: server.url, apiKey: 'k' });
		await expect(
			transport({ method: 'GET', path: '/api/v1/me', timeoutMs: 100 }),
		).rejects.toBeInstanceOf(TimeoutError);
		server.script([{ drop: true }]);
		await expect(
			transport({ method: 'GET', path: '/api/v1/me', timeoutMs: 2_000 }),
		).rejects.toBeInstanceOf(ConnectionError);
		await server.stop();
		await expect(
			transport({ method: 'GET', path: '/api/v1/me', timeoutMs: 2_000 }),
		).rejects.toBeInstanceOf(ConnectionError);
		await transport.close();
	});

	it('gives up on a slow-drip answer at the time-out, though bytes keep arriving', async () => {
		// 40 bytes at one per 50 ms take 2 s; each byte comes well inside the 300 ms time-out.
		const server = await startScriptedServer([
			{ drip: { everyMs: 50, body: { ok: true, padding: 'x'.repeat(20) } } },
		]);
		const transport = createUndiciTransport({ baseUrl: server.url, apiKey: 'k' });
		await expect(
			transport({ method: 'POST', path: '/api/v1/tools/x', body: {}, timeoutMs: 300 }),
		).rejects.toBeInstanceOf(TimeoutError);
		await transport.close();
		await server.stop();
	});
});
