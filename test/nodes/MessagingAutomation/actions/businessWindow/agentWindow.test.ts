import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO } from '../../../../sandbox';
import { agentRun, modelCall, SEND } from '../../agentRun';
import { useHarness } from '../../harness';
import { approveReplyTemplate, businessMessageEvent, ownBusinessMessages, REPLY } from './fixtures';

/*
 * An AI reply bot on Business after the customer's window closed (Dave wrote two days before the
 * sandbox started): the model learns, in its terms, what went out instead or why nothing did.
 */

const h = useHarness();

const BUSINESS: INodeParameters = { ...SEND, channel: 'business' };
const toDave = { Phone_Number: DEMO.dave.phone, Text: 'Your refund is on its way' };

describe('the AI Agent tool on Business outside the 24-hour window', () => {
	it('sends the template instead and tells the model so', async () => {
		approveReplyTemplate(h);
		const parameters = {
			...BUSINESS,
			outsideWindow: 'template',
			...REPLY,
			recipientOptInConfirmed: true,
		};
		const result = await agentRun(h, [modelCall(toDave)], parameters, {});
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			sent_as: 'template',
			note: expect.stringMatching(
				/^This customer's 24-hour window closed at .*, so your text was not sent as free text: the approved template service_reply was sent instead\. Do not send it again/,
			),
		});
		expect(ownBusinessMessages(h).map((message) => message.text)).toEqual([
			'A message from our team: Your refund is on its way',
		]);
	});

	it('with Stop, answers the model that nothing was sent and not to send the text again', async () => {
		const result = await agentRun(h, [modelCall(toDave)], BUSINESS, {});
		expect(result.json[0]).toEqual({
			error: expect.stringMatching(
				/^Not sent: this customer's 24-hour window closed at .* Do not send this text again: no free text reaches this customer until they write\./,
			),
		});
		expect(result.runFailed).toBe(false);
		expect(result.calls.map((call) => call.tool)).toEqual(['check_recipient_send_options']);
		expect(ownBusinessMessages(h)).toHaveLength(0);
	});

	it("answers a customer who just wrote without a check: the agent's event proves the window open", async () => {
		const event = businessMessageEvent('evt_agent_window_1', DEMO.carol.phone, 60_000);
		const result = await agentRun(
			h,
			[modelCall({ Phone_Number: DEMO.carol.phone, Text: 'Yes, on Sundays too' }, event)],
			BUSINESS,
			{},
		);
		expect(result.error).toBeUndefined();
		expect(result.calls.map((call) => call.tool)).toEqual(['send_message']);
		expect(result.json[0]).toMatchObject({ sent_as: 'text', window: { state: 'open' } });
	});
});
