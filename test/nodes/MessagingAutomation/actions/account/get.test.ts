import { describe, expect, it } from 'vitest';

import { DEMO } from '../../../../sandbox';
import { useHarness } from '../../harness';

const h = useHarness({}, { resetEach: false });

describe('Account > Get', () => {
	it('answers GET /api/v1/me once per input item', async () => {
		const result = await h.run({ parameters: { resource: 'account', operation: 'get' } }, [{}, {}]);
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(2);
		expect(result.json[0]).toMatchObject({
			account: { id: DEMO.accountId },
			key: { name: 'owner', owner: true },
			numbers: [
				{ channel: 'qr', phone: DEMO.qrPhone, connected: true },
				{ channel: 'business', phone: DEMO.businessPhone, connected: true },
			],
			ready: true,
		});
		expect(result.output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		// not a tool call
		expect(result.calls).toEqual([]);
	});

	it('reports the account context tool under the same resource', async () => {
		const result = await h.run({
			parameters: { resource: 'account', operation: 'getCapabilities', simplify: false },
		});
		expect(result.json[0]).toMatchObject({
			account: { id: DEMO.accountId },
			capabilities: { read: true, send: true },
		});
	});
});
