import type { INodeParameters } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { MessagingClient } from '../../../../../nodes/shared/client/client';
import { DEMO } from '../../../../sandbox';
import { operationOf, useHarness } from '../../harness';

/*
 * GET /api/v1/me's field names are "not shown" by the spec, whose
 * own vocabulary for a channel's connection is a state, `connected` or `disconnected` (spec: State
 * machines). An answer that says so by `status` instead of a `connected` boolean is an obvious
 * alternative the node should tolerate.
 */

const h = useHarness();

afterEach(() => {
	vi.restoreAllMocks();
});

const byJson = (rest: INodeParameters = {}): INodeParameters => ({
	...operationOf('send_message'),
	inputMode: 'json',
	jsonInput: '={{ JSON.stringify({ phoneNumber: $json.phone, text: $json.text }) }}',
	...rest,
});

describe('the channel-less Business send and /me shapes the spec leaves not shown', () => {
	it('a QR number reported as status "disconnected" leaves Business the only channel: the window decides', async () => {
		h.sandbox.inject.setChannel('qr', false);
		vi.spyOn(MessagingClient.prototype, 'getMe').mockResolvedValue({
			data: {
				numbers: [
					{ channel: 'qr', phone: DEMO.alice.phone, status: 'disconnected' },
					{ channel: 'business', phone: '+15550000000', status: 'connected' },
				],
			},
			status: 200,
			attempts: 1,
			replayed: false,
		} as never);
		const result = await h.run({ parameters: byJson({ outsideWindow: 'skip' }) }, [
			{ phone: DEMO.dave.phone, text: 'Your refund is on its way' },
		]);
		// Dave last wrote two days ago: Skip should give sent: false without calling send_message.
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ sent: false, window: { state: 'closed' } });
		expect(result.calls.map((call) => call.tool)).toEqual(['check_recipient_send_options']);
	});
});
