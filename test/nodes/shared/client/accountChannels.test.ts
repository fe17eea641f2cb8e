import { describe, expect, it } from 'vitest';

import { connectedChannels } from '../../../../nodes/shared/client/accountChannels';

/* GET /api/v1/me's connected channels: field names not shown by the spec (docs/assumptions.md). */

describe('connectedChannels', () => {
	it('reads numbers: [{ channel, phone, connected }], and the same list as channels', () => {
		const numbers = [
			{ channel: 'qr', phone: '15550100001', connected: false },
			{ channel: 'business', phone: '15550100002', connected: true },
		];
		expect(connectedChannels({ numbers, ready: true })).toEqual(['business']);
		expect(connectedChannels({ channels: numbers })).toEqual(['business']);
	});

	it('counts a listed number as connected unless it says otherwise', () => {
		expect(connectedChannels({ numbers: [{ channel: 'qr' }, { channel: 'business' }] })).toEqual([
			'qr',
			'business',
		]);
	});

	it('says nothing when the answer holds no list of numbers', () => {
		expect(connectedChannels({ account: {} })).toBeUndefined();
		expect(connectedChannels(null)).toBeUndefined();
		expect(connectedChannels({ numbers: [{ channel: 'sms' }, 'qr'] })).toEqual([]);
	});
});
