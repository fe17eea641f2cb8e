import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO } from '../../../../sandbox';
import { fieldsParameters, useHarness } from '../../harness';
import {
	approveReplyTemplate,
	businessMessageEvent,
	ownBusinessMessages,
	REPLY,
	windowClosedAt,
} from './fixtures';

/*
 * Send a message on Business decides by the 24-hour window before anything is sent: Carol wrote
 * 110 minutes before the sandbox started (open), Dave two days before (closed).
 */

const h = useHarness();

const send = (phone: string, rest: INodeParameters = {}) =>
	fieldsParameters(
		'send_message',
		{ channel: 'business', phoneNumber: phone, text: 'Your refund is on its way' },
		rest,
	);
const withTemplate = (rest: INodeParameters = {}) => ({
	outsideWindow: 'template',
	...REPLY,
	recipientOptInConfirmed: true,
	...rest,
});

const tools = (calls: Array<{ tool: string }>) => calls.map((call) => call.tool);
const daveClosedAt = () => windowClosedAt(h, DEMO.dave.phone);

describe('Send a message on Business: the 24-hour window', () => {
	it('Free text on Business goes only when the window is open; Business templates and QR sends are never checked', async () => {
		const result = await h.run({ parameters: send(DEMO.carol.phone) });
		expect(result.error).toBeUndefined();
		expect(tools(result.calls)).toEqual(['check_recipient_send_options', 'send_message']);
		expect(result.json[0]).toMatchObject({
			status: 'accepted',
			sent_as: 'text',
			window: { state: 'open', open_until: expect.any(String), checked_by: 'check' },
		});
		const closed = await h.run({ parameters: send(DEMO.dave.phone, { outsideWindow: 'skip' }) });
		expect(tools(closed.calls)).toEqual(['check_recipient_send_options']);
		// QR sends and Business templates need no window: no check.
		const qr = await h.run({
			parameters: fieldsParameters('send_message', {
				channel: 'qr',
				phoneNumber: DEMO.alice.phone,
				text: 'Hi',
			}),
		});
		expect(tools(qr.calls)).toEqual(['send_message']);
		expect(qr.json[0]).not.toHaveProperty('sent_as');
		const template = await h.run({
			parameters: fieldsParameters('send_message', {
				channel: 'business',
				phoneNumber: DEMO.dave.phone,
				templateName: 'order_update',
				templateLanguage: 'en',
				templateParameters: ['Dave', '1042', 'shipped'],
				recipientOptInConfirmed: true,
			}),
		});
		expect(template.error).toBeUndefined();
		expect(tools(template.calls)).toEqual(['send_message']);
	});

	it('with the window closed, stops by default before sending, naming when it closed and what to do', async () => {
		const result = await h.run({ parameters: send(DEMO.dave.phone) });
		expect(result.error?.message).toBe(
			`Business allows free text only within 24 hours of the customer's last message; this chat's window closed at ${daveClosedAt()}`,
		);
		expect(result.error?.description).toMatch(
			/nothing was sent\. Set If the 24-Hour Window Is Closed to Send a Template Instead \(or Skip\)/,
		);
		expect(tools(result.calls)).toEqual(['check_recipient_send_options']);
		expect(ownBusinessMessages(h)).toHaveLength(0);
	});

	it('sends the template instead, with the text as its variable, once also when the event runs again', async () => {
		approveReplyTemplate(h);
		const event = { event_id: 'evt_window_send_1' };
		const first = await h.run({ parameters: send(DEMO.dave.phone, withTemplate()) }, [event]);
		expect(first.error).toBeUndefined();
		const sent = first.calls.find((call) => call.tool === 'send_message');
		expect(sent?.input).toEqual({
			channel: 'business',
			phoneNumber: DEMO.dave.phone,
			...REPLY,
			templateParameters: ['Your refund is on its way'],
			recipientOptInConfirmed: true,
			idempotencyKey: expect.any(String),
		});
		expect(first.json[0]).toMatchObject({
			sent_as: 'template',
			template: { name: REPLY.templateName, language: REPLY.templateLanguage },
			window: { state: 'closed', closed_since: daveClosedAt(), checked_by: 'check' },
		});
		const again = await h.run({ parameters: send(DEMO.dave.phone, withTemplate()) }, [event]);
		expect(again.error).toBeUndefined();
		expect(again.calls.find((call) => call.tool === 'send_message')?.replayed).toBe(true);
		expect(ownBusinessMessages(h).map((message) => message.text)).toEqual([
			'A message from our team: Your refund is on its way',
		]);
	});

	it('sends nothing again when the window closed between a run and its rerun', async () => {
		approveReplyTemplate(h);
		const event = { event_id: 'evt_window_send_3' };
		const parameters = send(DEMO.carol.phone, withTemplate());
		const first = await h.run({ parameters }, [event]);
		expect(first.json[0]).toMatchObject({ sent_as: 'text' });
		h.sandbox.clock.advance(25 * 3_600_000);
		const again = await h.run({ parameters }, [event]);
		expect(again.error?.message).toBe('An earlier execution already sent this item');
		expect(again.error?.description).toMatch(
			/would have sent it as the template; .* nothing was sent again/,
		);
		expect(ownBusinessMessages(h).map((message) => message.text)).toEqual([
			'Your refund is on its way',
		]);
	});

	it('fills the template from mapped values when Template Variables says so', async () => {
		const result = await h.run(
			{
				parameters: send(
					DEMO.dave.phone,
					withTemplate({
						templateName: 'order_update',
						templateVariables: 'values',
						templateParameters: '={{ [$json.name, $json.order, "refunded"] }}',
					}),
				),
			},
			[{ name: 'Dave', order: '1042' }],
		);
		expect(result.error).toBeUndefined();
		expect(ownBusinessMessages(h).map((message) => message.text)).toEqual([
			'Hi Dave, your order 1042 is now refunded.',
		]);
	});

	it('names Recipient Opted In when the template would go without it, and sends nothing', async () => {
		approveReplyTemplate(h);
		const result = await h.run({
			parameters: send(DEMO.dave.phone, withTemplate({ recipientOptInConfirmed: false })),
		});
		expect(result.error?.message).toMatch(/^Recipient Opted In must be true/);
		expect(tools(result.calls)).toEqual(['check_recipient_send_options']);
	});

	it('skips the item with the reason, so the workflow can branch', async () => {
		const result = await h.run({ parameters: send(DEMO.dave.phone, { outsideWindow: 'skip' }) });
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toEqual({
			sent: false,
			sent_as: null,
			reason: `Not sent: this customer's 24-hour window closed at ${daveClosedAt()}, and Business delivers free text only within 24 hours of the customer's last message.`,
			window: { state: 'closed', closed_since: daveClosedAt(), checked_by: 'check' },
		});
		expect(tools(result.calls)).toEqual(['check_recipient_send_options']);
	});

	it('decides the same way for input given as JSON', async () => {
		const result = await h.run({
			parameters: {
				resource: 'message',
				operation: 'send',
				inputMode: 'json',
				jsonInput: JSON.stringify({
					channel: 'business',
					phoneNumber: DEMO.dave.phone,
					text: 'Your refund is on its way',
				}),
				outsideWindow: 'skip',
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ sent: false, window: { state: 'closed' } });
		expect(tools(result.calls)).toEqual(['check_recipient_send_options']);
	});

	it('Otherwise one check per recipient per run decides, and a window it read as closed stays closed for the run', async () => {
		const items: IDataObject[] = [DEMO.carol, DEMO.dave, DEMO.carol, DEMO.dave].map((person) => ({
			phone: person.phone,
		}));
		const result = await h.run(
			{ parameters: send('={{ $json.phone }}', { outsideWindow: 'skip' }) },
			items,
		);
		expect(result.error).toBeUndefined();
		expect(
			result.calls.filter((call) => call.tool === 'check_recipient_send_options'),
		).toHaveLength(2);
		expect(result.json.map((json) => json.sent_as)).toEqual(['text', null, 'text', null]);
	});

	it("A trigger item that carries the customer's Business message proves the window open without a read", async () => {
		const received = businessMessageEvent('evt_window_send_2', DEMO.carol.phone, 3_600_000);
		const result = await h.run({ parameters: send(DEMO.carol.phone) }, [received]);
		expect(result.error).toBeUndefined();
		expect(tools(result.calls)).toEqual(['send_message']);
		expect(result.json[0]).toMatchObject({ sent_as: 'text', window: { checked_by: 'event' } });
	});

	it("sends without a check when the service's clock is ahead and stamps the message seconds after n8n's now", async () => {
		const received = businessMessageEvent('evt_window_send_3', DEMO.carol.phone, -5_000);
		const result = await h.run({ parameters: send(DEMO.carol.phone) }, [received]);
		expect(result.error).toBeUndefined();
		expect(tools(result.calls)).toEqual(['send_message']);
		expect(result.json[0]).toMatchObject({ sent_as: 'text', window: { checked_by: 'event' } });
	});
});
