import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO } from '../../../../sandbox';
import { useHarness } from '../../harness';

/*
 * Send and Wait in n8n's engine against the sandbox: the question goes out once with signed links
 * to this execution, and the run stops to wait. The answering side runs in real n8n (e2e).
 */

const h = useHarness();

const ask = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'message',
	operation: 'sendAndWait',
	channel: 'qr',
	sendTo: 'phoneNumber',
	phoneNumber: DEMO.alice.phone,
	message: 'May we refund order 1042?',
	...extra,
});

const sentText = (calls: Array<{ tool: string; input: unknown }>) =>
	String((calls.find((call) => call.tool === 'send_message')?.input as { text?: string } | undefined)?.text ?? '');

describe('Send and Wait: the question', () => {
	it('sends the message with signed approve and decline links, then waits', async () => {
		const result = await h.run({ parameters: ask({ approvalOptions: { values: { approvalType: 'double', approveLabel: 'Yes', disapproveLabel: 'No' } } }) });
		expect(result.error).toBeUndefined();
		expect(result.calls.filter((call) => call.tool === 'send_message')).toHaveLength(1);
		const text = sentText(result.calls);
		expect(text).toMatch(/^May we refund order 1042\?\n\nYes: http:\/\/localhost:5678\/webhook-waiting\/exec-test-\d+\/node-1\?.*approved=true.*signature=/);
		expect(text).toMatch(/\nNo: http:\/\/localhost:5678\/webhook-waiting\/.*approved=false/);
		expect(result.waitTill?.getTime()).toBeGreaterThan(Date.now() + 365 * 86_400_000);
		expect(result.json[0]).toMatchObject({ data: { waiting: true }, messageId: expect.any(String) });
	});

	it('waits only as long as Limit Wait Time says', async () => {
		const limit = { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 2, resumeUnit: 'hours' } } };
		const before = Date.now();
		const result = await h.run({ parameters: ask({ options: limit }) });
		expect(result.waitTill?.getTime()).toBeGreaterThanOrEqual(before + 2 * 3_600_000);
		expect(result.waitTill?.getTime()).toBeLessThan(Date.now() + 2 * 3_600_000 + 1_000);
	});

	it('links to a page for free text, with the chosen label', async () => {
		const result = await h.run({ parameters: ask({ responseType: 'freeText', options: { messageButtonLabel: 'Answer here' } }) });
		expect(sentText(result.calls)).toMatch(/\n\nAnswer here: http:\/\/localhost:5678\/webhook-waiting\//);
	});

	it('refuses a custom form without fields before sending', async () => {
		const result = await h.run({ parameters: ask({ responseType: 'customForm' }) });
		expect(result.error?.message).toMatch(/at least one field under Form Fields/);
		expect(result.calls).toEqual([]);
	});

	it('on Business, says before sending when the 24-hour window is closed', async () => {
		const closed = await h.run({ parameters: ask({ channel: 'business', phoneNumber: DEMO.dave.phone }) });
		expect(closed.error?.message).toMatch(/within 24 hours/);
		expect(closed.calls.map((call) => call.tool)).toEqual(['check_recipient_send_options']);
		const open = await h.run({ parameters: ask({ channel: 'business', phoneNumber: DEMO.carol.phone }) });
		expect(open.error).toBeUndefined();
		expect(open.calls.map((call) => call.tool)).toEqual(['check_recipient_send_options', 'send_message']);
	});

	it('never asks twice for one trigger event: a rerun sends nothing and says so', async () => {
		const event = { event_id: 'evt_sendandwait_1', conversation_id: `${DEMO.alice.phone}@s.whatsapp.net` };
		const first = await h.run({ parameters: ask() }, [event]);
		expect(first.error).toBeUndefined();
		const again = await h.run({ parameters: ask() }, [event]);
		expect(again.error?.message).toMatch(/already sent for this item by an earlier execution/);
		const sends = h.sandbox.calls().filter((call) => call.tool === 'send_message' && call.status === 200);
		expect(sends).toHaveLength(1);
	});

	it('checks the recipient like Send does, naming the field', async () => {
		const result = await h.run({ parameters: ask({ phoneNumber: '+49 151' }) });
		expect(result.error?.message).toMatch(/^Phone Number must be 7-15 digits/);
		expect(result.calls).toEqual([]);
	});
});
