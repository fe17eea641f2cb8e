import { describe, expect, it } from 'vitest';

import { MessagingClient, type PaceGate } from '../../../../nodes/shared/client/client';
import { InputValidationError } from '../../../../nodes/shared/client/errors';
import { isValidIdempotencyKey } from '../../../../nodes/shared/client/idempotency';
import type { PaceBucket } from '../../../../nodes/shared/client/pacer';
import { useScriptedClient } from '../../../support/testClient';

const fixture = useScriptedClient('mk_test_client_key', [{ status: 200, body: { ok: true } }]);
const client = fixture.client;

const last = () => fixture.server.requests[fixture.server.requests.length - 1];

describe('callTool request shape', () => {
	it('POSTs an empty JSON object for a tool without input, and no key for a read', async () => {
		await client().callTool('get_account_context');
		expect(last()).toMatchObject({
			method: 'POST',
			path: '/api/v1/tools/get_account_context',
			rawBody: '{}',
		});
		expect(last().headers['content-type']).toBe('application/json');
		expect(last().headers['idempotency-key']).toBeUndefined();
		expect(last().headers.authorization).toBe('Bearer mk_test_client_key');
	});

	it('generates a valid key for a write call and sends it in header and body when the schema has the field', async () => {
		const result = await client().callTool('cancel_campaign', {
			campaignId: '3f1c2b4a-0000-4000-8000-000000000001',
		});
		const key = last().headers['idempotency-key'] as string;
		expect(isValidIdempotencyKey(key)).toBe(true);
		expect(last().body).toEqual({
			campaignId: '3f1c2b4a-0000-4000-8000-000000000001',
			idempotencyKey: key,
		});
		expect(result.idempotencyKey).toBe(key);
	});

	it('two calls without a given key get different keys', async () => {
		const c = client();
		await c.callTool('cancel_campaign', { campaignId: 'a' });
		await c.callTool('cancel_campaign', { campaignId: 'a' });
		expect(fixture.server.requests[0].headers['idempotency-key']).not.toBe(
			fixture.server.requests[1].headers['idempotency-key'],
		);
	});

	it('uses the given key; a key already in the input wins, as it does on the server', async () => {
		const c = client();
		await c.callTool(
			'send_message',
			{ channel: 'qr', phoneNumber: '4915112345678', text: 'hi' },
			{ idempotencyKey: 'evt_123:abc' },
		);
		expect(last().headers['idempotency-key']).toBe('evt_123:abc');
		expect((last().body as Record<string, unknown>).idempotencyKey).toBe('evt_123:abc');
		await c.callTool(
			'send_message',
			{ text: 'hi', idempotencyKey: 'from-input-1' },
			{ idempotencyKey: 'evt_123:abc' },
		);
		expect(last().headers['idempotency-key']).toBe('from-input-1');
	});

	it('rejects a malformed key before sending anything', async () => {
		const c = client();
		for (const key of ['short', 'has space in it', 'x'.repeat(129)]) {
			const error = await c
				.callTool('cancel_campaign', { campaignId: 'a' }, { idempotencyKey: key })
				.catch((thrown: unknown) => thrown);
			expect(error).toBeInstanceOf(InputValidationError);
			expect((error as InputValidationError).field).toBe('idempotencyKey');
		}
		expect(fixture.server.requests).toHaveLength(0);
	});

	it('tools unknown to the catalogue: the live schema decides the body field, access decides the key', async () => {
		const c = client();
		const schema = {
			type: 'object',
			properties: { query: { type: 'string' }, idempotencyKey: { type: 'string' } },
		};
		await c.callTool(
			'tag_conversation',
			{ query: 'x' },
			{ access: 'write', inputSchema: schema, idempotencyKey: 'tag-key-0001' },
		);
		expect(last().body).toEqual({ query: 'x', idempotencyKey: 'tag-key-0001' });
		expect(last().headers['idempotency-key']).toBe('tag-key-0001');

		await c.callTool(
			'tag_conversation',
			{ query: 'x' },
			{ access: 'write', inputSchema: { type: 'object', properties: { query: {} } } },
		);
		expect(last().body).toEqual({ query: 'x' });
		expect(last().headers['idempotency-key']).toBeDefined();

		await c.callTool('search_messages', { query: 'x' }, { access: 'read' });
		expect(last().body).toEqual({ query: 'x' });
		expect(last().headers['idempotency-key']).toBeUndefined();

		// Nothing known about the tool: treated as a write, so it can never be sent twice.
		await c.callTool('mystery_tool', {});
		expect(last().headers['idempotency-key']).toBeDefined();
	});

	it("leaves a read tool's own idempotencyKey field alone (get_send_status looks sends up by it)", async () => {
		await client().callTool('get_send_status', { idempotencyKey: 'evt_1:abcdef' });
		expect(last().body).toEqual({ idempotencyKey: 'evt_1:abcdef' });
		expect(last().headers['idempotency-key']).toBeUndefined();
	});

	it('encodes the tool name into the path', async () => {
		await client().callTool('odd/name', {}, { access: 'read' });
		expect(last().path).toBe('/api/v1/tools/odd%2Fname');
	});
});

describe('results', () => {
	it('resolves data, request id, status, attempts and replay flag', async () => {
		const c = client();
		fixture.server.script([
			{
				status: 200,
				body: { message_id: 'm1' },
				headers: { 'Idempotent-Replayed': 'true', 'X-Request-Id': 'req_abc' },
			},
		]);
		const result = await c.callTool('send_message', {
			channel: 'business',
			phoneNumber: '4915112345678',
			text: 'hi',
		});
		expect(result).toMatchObject({
			data: { message_id: 'm1' },
			requestId: 'req_abc',
			status: 200,
			attempts: 1,
			replayed: true,
		});
	});

	it('getMe and listTools', async () => {
		const c = client();
		const me = {
			account: { id: 'acc_1', name: 'A', plan: 'top' },
			key: { name: 'k', scopes: ['messenger.read'], owner: false },
			numbers: [],
			ready: true,
		};
		fixture.server.script([{ status: 200, body: me }]);
		expect((await c.getMe()).data).toEqual(me);
		expect(last()).toMatchObject({ method: 'GET', path: '/api/v1/me', rawBody: '' });
		fixture.server.script([
			{
				status: 200,
				body: {
					tools: [{ name: 'send_message', access: 'write', input_schema: { type: 'object' } }],
				},
			},
		]);
		expect((await c.listTools()).data).toEqual([
			{ name: 'send_message', access: 'write', inputSchema: { type: 'object' } },
		]);
		expect(last()).toMatchObject({ method: 'GET', path: '/api/v1/tools' });
	});
});

describe('pacing and hooks', () => {
	function recordingGate() {
		const acquired: PaceBucket[][] = [];
		let released = 0;
		const gate: PaceGate = {
			acquire: async (buckets) => {
				acquired.push([...buckets]);
				return () => void released++;
			},
		};
		return { gate, acquired, released: () => released };
	}

	it('asks the pacer before every attempt, retries included, and releases each slot', async () => {
		const { gate, acquired, released } = recordingGate();
		const c = client({ pacer: gate });
		fixture.server.script([
			{ status: 503, body: { error: { code: 'tool_error', message: 'later' } } },
			{ status: 200, body: {} },
		]);
		await c.callTool('send_message', { channel: 'qr', phoneNumber: '4915112345678', text: 'hi' });
		expect(acquired).toEqual([
			['write', 'qr:default'],
			['write', 'qr:default'],
		]);
		expect(released()).toBe(2);
	});

	it('chooses buckets: business sends and reads are not QR sends; the caller can name the number', async () => {
		const { gate, acquired } = recordingGate();
		const c = client({ pacer: gate });
		await c.callTool('send_message', {
			channel: 'business',
			phoneNumber: '4915112345678',
			text: 'hi',
		});
		await c.callTool(
			'forward_message',
			{ phoneNumber: '4915112345678', sourceMessageId: 'm' },
			{ qrNumber: '4930123' },
		);
		await c.callTool('get_account_context');
		await c.callTool('create_campaign', { name: 'n' });
		await c.getMe();
		expect(acquired).toEqual([['write'], ['write', 'qr:4930123'], ['read'], ['write'], ['read']]);
	});

	it("does not retry or wrap failures that are not the transport's (a cancelled execution)", async () => {
		let calls = 0;
		const cancelled = new Error('The execution was cancelled');
		const c = new MessagingClient({
			transport: async () => {
				calls++;
				throw cancelled;
			},
			sleep: async () => {},
		});
		await expect(c.callTool('get_account_context')).rejects.toBe(cancelled);
		expect(calls).toBe(1);
	});
});
