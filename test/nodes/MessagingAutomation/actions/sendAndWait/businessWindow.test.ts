import { describe, expect, it } from 'vitest';

import { DEMO } from '../../../../sandbox';
import { useHarness } from '../../harness';
import { ownBusinessMessages, windowClosedAt } from '../businessWindow/fixtures';

/*
 * Send and Wait follows the node's one window rule, also when its Channel leaves the choice to the
 * service (an expression that gives none): on a Business-only account the question is a Business send.
 */

const h = useHarness();

const ask = (phone: string) => ({
	resource: 'message',
	operation: 'sendAndWait',
	channel: '={{ $json.channel }}',
	sendTo: 'phoneNumber',
	phoneNumber: phone,
	message: 'May we refund order 1042?',
});

describe('Send and Wait without a channel on a Business-only account', () => {
	it('says before sending that the window is closed, and asks as free text inside it', async () => {
		h.sandbox.inject.setChannel('qr', false);
		const closed = await h.run({ parameters: ask(DEMO.dave.phone) });
		expect(closed.error?.message).toBe(
			`Business allows free text only within 24 hours of the customer's last message; this chat's window closed at ${windowClosedAt(h, DEMO.dave.phone)}`,
		);
		expect(closed.calls.map((call) => call.tool)).toEqual(['check_recipient_send_options']);
		expect(ownBusinessMessages(h)).toHaveLength(0);

		const open = await h.run({ parameters: ask(DEMO.carol.phone) });
		expect(open.error).toBeUndefined();
		expect(open.calls.map((call) => call.tool)).toEqual([
			'check_recipient_send_options',
			'send_message',
		]);
		expect(open.waitTill).toBeDefined();
	});
});
