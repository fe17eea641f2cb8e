import { afterAll, afterEach, beforeAll } from 'vitest';

import { MessagingClient, type MessagingClientOptions } from '../../nodes/shared/client/client';
import { type ScriptedServer, type ScriptStep, startScriptedServer } from './scriptedServer';
import { createUndiciTransport, type UndiciTransport } from './undiciTransport';

export interface TestClient {
	client: MessagingClient;
	transport: UndiciTransport;
	/** Every wait the client asked for, in ms: the sleep resolves at once, so tests never wait on the wall clock. */
	sleeps: number[];
	close(): Promise<void>;
}

/** A MessagingClient over undici with an instant, recording sleep and a fixed jitter. */
export function testClient(
	baseUrl: string,
	apiKey: string,
	options: Partial<Omit<MessagingClientOptions, 'transport' | 'sleep'>> = {},
): TestClient {
	const transport = createUndiciTransport({ baseUrl, apiKey });
	const sleeps: number[] = [];
	const client = new MessagingClient({
		transport,
		sleep: async (ms) => {
			sleeps.push(ms);
		},
		random: () => 0.5,
		...options,
	});
	return { client, transport, sleeps, close: () => transport.close() };
}

export interface ScriptedClientFixture {
	/** The file's scripted server; valid inside tests. */
	readonly server: ScriptedServer;
	/** Waits asked for by the latest client. */
	readonly sleeps: number[];
	/** A fresh client against the server, with its request log cleared and `initial` scripted. */
	client(options?: Parameters<typeof testClient>[2]): MessagingClient;
}

/** Starts one scripted server for a test file and closes each test's client after it. */
export function useScriptedClient(
	apiKey: string,
	initial: ScriptStep[] = [],
): ScriptedClientFixture {
	let server: ScriptedServer | undefined;
	let current: TestClient | undefined;
	beforeAll(async () => {
		server = await startScriptedServer(initial);
	});
	afterEach(async () => {
		await current?.close();
		current = undefined;
	});
	afterAll(async () => {
		await server?.stop();
	});
	const started = () => {
		if (!server) throw new Error('useScriptedClient: the server starts in beforeAll');
		return server;
	};
	return {
		get server() {
			return started();
		},
		get sleeps() {
			return current?.sleeps ?? [];
		},
		client(options = {}) {
			const target = started();
			target.requests.length = 0;
			if (initial.length > 0) target.script(initial);
			current = testClient(target.url, apiKey, options);
			return current.client;
		},
	};
}
