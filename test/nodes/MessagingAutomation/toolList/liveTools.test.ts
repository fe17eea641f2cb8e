import { describe, expect, it } from 'vitest';

import {
	liveTools,
	MAX_CACHED_KEYS,
} from '../../../../nodes/MessagingAutomation/toolList/liveTools';
import { MessagingClient } from '../../../../nodes/shared/client/client';
import { credentialProbe } from '../../../support/credentialProbe';

/* The tool-list cache lives as long as n8n: it keeps the most recently used keys, a bounded number. */

describe('liveTools cache', () => {
	it(`holds at most ${MAX_CACHED_KEYS} keys, dropping the least recently used`, async () => {
		let listings = 0;
		const client = new MessagingClient({
			sleep: async () => {},
			transport: async () => {
				listings++;
				return {
					status: 200,
					headers: {},
					body: {
						tools: [{ name: 'send_message', access: 'write', input_schema: { type: 'object' } }],
					},
				};
			},
		});
		const context = (key: number) =>
			credentialProbe({
				apiKey: `mk_cache_key_${key}`,
				baseUrl: 'http://127.0.0.1:9',
				authScheme: 'bearer',
			});

		await liveTools(context(0), client);
		await liveTools(context(0), client);
		expect(listings).toBe(1);

		for (let key = 1; key <= MAX_CACHED_KEYS; key++) await liveTools(context(key), client);
		expect(listings).toBe(1 + MAX_CACHED_KEYS);
		// Key 1 was used again just now, so key 0, the least recently used, is the one that went.
		await liveTools(context(1), client);
		await liveTools(context(0), client);
		expect(listings).toBe(2 + MAX_CACHED_KEYS);
		await liveTools(context(1), client);
		expect(listings).toBe(2 + MAX_CACHED_KEYS);
	});
});
