import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO } from '../../../../sandbox';
import { useHarness } from '../../harness';
import { businessMessageEvent, windowClosedAt } from '../businessWindow/fixtures';

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
	String(
		(calls.find((call) => call.tool === 'send_message')?.input as { text?: string } | undefined)
			?.text ?? '',
	);

describe('Send and Wait: the question', () => {
	it('sends the message with signed approve and decline links, then waits', async () => {
		const result = await h.run({
			parameters: ask({
				approvalOptions: {
					values: { approvalType: 'double', approveLabel: 'Yes', disapproveLabel: 'No' },
				},
			}),
		});
		expect(result.error).toBeUndefined();
		expect(result.calls.filter((call) => call.tool === 'send_message')).toHaveLength(1);
		const text = sentText(result.calls);
		expect(text).toMatch(
			/^May we refund order 1042\?\n\nYes: http:\/\/localhost:5678\/webhook-waiting\/exec-test-\d+\/node-1\?.*approved=true.*signature=/,
		);
		expect(text).toMatch(/\nNo: http:\/\/localhost:5678\/webhook-waiting\/.*approved=false/);
		expect(result.waitTill?.getTime()).toBeGreaterThan(Date.now() + 365 * 86_400_000);
		expect(result.json[0]).toMatchObject({
			data: { waiting: true },
			messageId: expect.any(String),
		});
	});

	it('waits only as long as Limit Wait Time says', async () => {
		const limit = {
			limitWaitTime: {
				values: { limitType: 'afterTimeInterval', resumeAmount: 2, resumeUnit: 'hours' },
			},
		};
		const before = Date.now();
		const result = await h.run({ parameters: ask({ options: limit }) });
		expect(result.waitTill?.getTime()).toBeGreaterThanOrEqual(before + 2 * 3_600_000);
		expect(result.waitTill?.getTime()).toBeLessThan(Date.now() + 2 * 3_600_000 + 1_000);
	});

	it('links to a page for free text, with the chosen label', async () => {
		const result = await h.run({
			parameters: ask({ responseType: 'freeText', options: { messageButtonLabel: 'Answer here' } }),
		});
		expect(sentText(result.calls)).toMatch(
			/\n\nAnswer here: http:\/\/localhost:5678\/webhook-waiting\//,
		);
	});

	it('refuses a custom form without fields before sending', async () => {
		const result = await h.run({ parameters: ask({ responseType: 'customForm' }) });
		expect(result.error?.message).toMatch(/at least one field under Form Fields/);
		expect(result.calls).toEqual([]);
	});

	it('on Business, says before sending when the 24-hour window is closed', async () => {
		const closed = await h.run({
			parameters: ask({ channel: 'business', phoneNumber: DEMO.dave.phone }),
		});
		expect(closed.error?.message).toMatch(/within 24 hours/);
		expect(closed.error?.description).toMatch(
			/nothing was sent\. Set If the 24-Hour Window Is Closed to Ask With a Template/,
		);
		expect(closed.calls.map((call) => call.tool)).toEqual(['check_recipient_send_options']);
		const open = await h.run({
			parameters: ask({ channel: 'business', phoneNumber: DEMO.carol.phone }),
		});
		expect(open.error).toBeUndefined();
		expect(open.calls.map((call) => call.tool)).toEqual([
			'check_recipient_send_options',
			'send_message',
		]);
	});

	it('on Business, names the time the window closed', async () => {
		const closedAt = windowClosedAt(h, DEMO.dave.phone);
		const closed = await h.run({
			parameters: ask({ channel: 'business', phoneNumber: DEMO.dave.phone }),
		});
		expect(closed.error?.message).toBe(
			`Business allows free text only within 24 hours of the customer's last message; this chat's window closed at ${closedAt}`,
		);
	});

	it("on Business, asks without a check when the trigger's item is the customer's recent message", async () => {
		const received = businessMessageEvent('evt_window_proof_1', DEMO.carol.phone, 3_600_000);
		const result = await h.run(
			{ parameters: ask({ channel: 'business', phoneNumber: DEMO.carol.phone }) },
			[received],
		);
		expect(result.error).toBeUndefined();
		expect(result.calls.map((call) => call.tool)).toEqual(['send_message']);
	});

	it('never asks twice for one trigger event: a rerun sends nothing and says so', async () => {
		const event = {
			event_id: 'evt_sendandwait_1',
			conversation_id: `${DEMO.alice.phone}@s.whatsapp.net`,
		};
		const first = await h.run({ parameters: ask() }, [event]);
		expect(first.error).toBeUndefined();
		const again = await h.run({ parameters: ask() }, [event]);
		expect(again.error?.message).toMatch(/already sent for this item by an earlier execution/);
		const sends = h.sandbox
			.calls()
			.filter((call) => call.tool === 'send_message' && call.status === 200);
		expect(sends).toHaveLength(1);
	});

	it("writes out a Human review tool's parameters where n8n's default text would say [object Object]", async () => {
		// What n8n's AI Agent hands the Human review variant of this node: the gated tool's call.
		const call = {
			tool: 'Send_a_message',
			toolParameters: {
				Phone_Number: DEMO.carol.phone,
				Text: 'Your refund is on its way',
				Count: 2,
			},
		};
		const hitlDefault =
			'=The agent wants to run this tool: {{ $tool.name }}\n\nInput:\n{{ $tool.parameters }}';
		const result = await h.run({ parameters: ask({ message: hitlDefault }) }, [call]);
		expect(result.error).toBeUndefined();
		expect(sentText(result.calls)).toMatch(
			new RegExp(
				`^The agent wants to run this tool: Send_a_message\\n\\nInput:\\nPhone Number: ${DEMO.carol.phone}\\nText: Your refund is on its way\\nCount: 2\\n\\nApprove: http`,
			),
		);
		// Outside Human review an object in the text stays as n8n renders it.
		const plain = await h.run({ parameters: ask({ message: '=Order {{ $json.order }}' }) }, [
			{ order: { id: 1 } },
		]);
		expect(sentText(plain.calls)).toMatch(/^Order \[object Object\]\n/);
	});

	it('checks the recipient like Send does, naming the field', async () => {
		const result = await h.run({ parameters: ask({ phoneNumber: '+49 151' }) });
		expect(result.error?.message).toMatch(/^Phone Number must be 7-15 digits/);
		expect(result.calls).toEqual([]);
	});
});

describe('Send and Wait on Business outside the 24-hour window', () => {
	const REVIEW = { templateName: 'refund_review', templateLanguage: 'en' };
	const withTemplate = (extra: INodeParameters = {}) =>
		ask({
			channel: 'business',
			phoneNumber: DEMO.dave.phone,
			outsideWindow: 'template',
			...REVIEW,
			recipientOptInConfirmed: true,
			...extra,
		});
	const double = { approvalOptions: { values: { approvalType: 'double' } } };

	/** An approved template with a variable for the question and one per link. */
	function approveTemplate(body: string): void {
		h.sandbox.state.account(DEMO.accountId).templates.push({
			id: 'tpl_review01',
			name: REVIEW.templateName,
			language: REVIEW.templateLanguage,
			category: 'UTILITY',
			body,
			bodyExamples: [],
			header: null,
			footer: null,
			status: 'APPROVED',
			createdAt: Date.now(),
		});
	}

	const sentInput = (calls: Array<{ tool: string; input: unknown }>) =>
		calls.find((call) => call.tool === 'send_message')?.input as
			| Record<string, unknown>
			| undefined;

	it('asks with the template: the message, then one link per button, and waits', async () => {
		approveTemplate('{{1}} Approve: {{2}} Decline: {{3}}');
		const result = await h.run({ parameters: withTemplate(double) });
		expect(result.error).toBeUndefined();
		expect(result.calls.map((call) => call.tool)).toEqual([
			'check_recipient_send_options',
			'send_message',
		]);
		const input = sentInput(result.calls);
		expect(input).toMatchObject({ channel: 'business', ...REVIEW, recipientOptInConfirmed: true });
		expect(input).not.toHaveProperty('text');
		const [message, approve, decline] = input?.templateParameters as string[];
		expect(message).toBe('May we refund order 1042?');
		expect(approve).toMatch(
			/^http:\/\/localhost:5678\/webhook-waiting\/.*approved=true.*signature=/,
		);
		expect(decline).toMatch(/approved=false/);
		expect(result.waitTill).toBeDefined();
		expect(result.json[0]).toMatchObject({
			data: { waiting: true },
			messageId: expect.any(String),
		});
	});

	it('with Links Only, the variables hold the links alone', async () => {
		approveTemplate('Refund order 1042? Approve: {{1}}');
		const result = await h.run({ parameters: withTemplate({ templateVariables: 'links' }) });
		expect(result.error).toBeUndefined();
		expect(sentInput(result.calls)?.templateParameters).toEqual([
			expect.stringMatching(/approved=true/),
		]);
	});

	it('inside the window, the question still goes as free text', async () => {
		const result = await h.run({ parameters: withTemplate({ phoneNumber: DEMO.carol.phone }) });
		expect(result.error).toBeUndefined();
		expect(sentInput(result.calls)).toMatchObject({
			text: expect.stringMatching(/^May we refund order 1042\?/),
		});
	});

	it('names Recipient Opted In when it is off, and sends nothing', async () => {
		approveTemplate('{{1}} Approve: {{2}}');
		const result = await h.run({ parameters: withTemplate({ recipientOptInConfirmed: false }) });
		expect(result.error?.message).toMatch(/^Recipient Opted In must be true/);
		expect(result.calls.map((call) => call.tool)).toEqual(['check_recipient_send_options']);
	});

	it('refuses a message too long for a template variable, naming the Message', async () => {
		const result = await h.run({ parameters: withTemplate({ message: 'x'.repeat(1_025) }) });
		expect(result.error?.message).toBe(
			'Message must be at most 1024 characters to fit a template variable',
		);
		expect(result.calls.map((call) => call.tool)).toEqual(['check_recipient_send_options']);
	});

	it("passes the service's refusal of a template with other variables on, with nothing sent", async () => {
		approveTemplate('{{1}} {{2}} {{3}} {{4}}');
		const result = await h.run({ parameters: withTemplate() });
		expect(result.error?.message).toBe(
			'Template refund_review does not take the 2 values Send and Wait fills',
		);
		expect(result.error?.description).toMatch(
			/fills 2 template variables: the Message, then one link per button\. The service said "templateParameters must have 4 values for template refund_review \(got 2\)"\. Nothing was sent\./,
		);
		expect(
			h.sandbox.calls().filter((call) => call.tool === 'send_message' && call.status === 200),
		).toHaveLength(0);
	});
});
