import { MessagingClient, type MessagingClientOptions } from '../../nodes/shared/client/client';
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
