import type { IDataObject, INodeParameters, ResourceMapperFields } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { getToolFields } from '../../../../../nodes/MessagingAutomation/methods/resourceMapping';
import { MessagingClient } from '../../../../../nodes/shared/client/client';
import { DEMO } from '../../../../sandbox';
import { mapperValue, operationOf, useHarness } from '../../harness';
import { approveReplyTemplate, ownBusinessMessages, REPLY, windowClosedAt } from './fixtures';

/*
 * Input that leaves the channel out (the spec lets it when one channel is connected): on an account
 * whose only channel is Business, the window decides as for an input that names Business. Carol
 * wrote 110 minutes before the sandbox started (open), Dave two days before (closed).
 */

const h = useHarness();

afterEach(() => {
	vi.restoreAllMocks();
});

const TEXT = 'Your refund is on its way';
const tools = (calls: Array<{ tool: string }>) => calls.map((call) => call.tool);

const byJson = (rest: INodeParameters = {}): INodeParameters => ({
	...operationOf('send_message'),
	inputMode: 'json',
	jsonInput: '={{ JSON.stringify({ phoneNumber: $json.phone, text: $json.text }) }}',
	...rest,
});

async function byMapper(value: IDataObject, rest: INodeParameters = {}): Promise<INodeParameters> {
	const base = { ...operationOf('send_message'), inputMode: 'mapper' };
	const { fields } = (await getToolFields.call(h.loadOptions(base))) as ResourceMapperFields;
	return { ...base, toolInput: mapperValue(fields, value), ...rest };
}

const to = (...people: Array<{ phone: string }>) =>
	people.map((person) => ({ phone: person.phone, text: TEXT }));

const businessOnly = () => h.sandbox.inject.setChannel('qr', false);

describe('the window for a Business send whose input leaves the channel out', () => {
	it('An input without a channel, on an account whose only connected channel is Business, is a Business send: the window decides it', async () => {
		businessOnly();
		const skipped = await h.run({ parameters: byJson({ outsideWindow: 'skip' }) }, to(DEMO.dave));
		expect(skipped.error).toBeUndefined();
		expect(skipped.json[0]).toMatchObject({
			sent: false,
			window: { state: 'closed', closed_since: windowClosedAt(h, DEMO.dave.phone) },
		});
		expect(tools(skipped.calls)).toEqual(['check_recipient_send_options']);
		expect(skipped.calls[0].input).toMatchObject({ channel: 'business' });

		const stopped = await h.run({ parameters: byJson() }, to(DEMO.dave));
		expect(stopped.error?.message).toMatch(/this chat's window closed at /);
		expect(tools(stopped.calls)).toEqual(['check_recipient_send_options']);

		const open = await h.run({ parameters: byJson() }, to(DEMO.carol));
		expect(open.error).toBeUndefined();
		expect(open.json[0]).toMatchObject({ sent_as: 'text', window: { state: 'open' } });
		// The text goes as it was given: the service sends it on its only channel.
		expect(open.calls[1]).toMatchObject({
			tool: 'send_message',
			input: { phoneNumber: DEMO.carol.phone, text: TEXT },
		});
		expect(open.calls[1].input).not.toHaveProperty('channel');
	});

	it('sends the chosen template instead for input by Map Each Field without a channel', async () => {
		businessOnly();
		approveReplyTemplate(h);
		const parameters = await byMapper(
			{ phoneNumber: DEMO.dave.phone, text: TEXT },
			{ outsideWindow: 'template', ...REPLY, recipientOptInConfirmed: true },
		);
		const result = await h.run({ parameters });
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ sent_as: 'template', window: { state: 'closed' } });
		const sent = result.calls.find((call) => call.tool === 'send_message');
		expect(sent?.input).toMatchObject({ channel: 'business', ...REPLY });
		expect(ownBusinessMessages(h).map((message) => message.text)).toEqual([
			`A message from our team: ${TEXT}`,
		]);
	});

	it("To know which channel that is, the node reads the account's connected numbers once per run, not per item", async () => {
		businessOnly();
		const reads = vi.spyOn(MessagingClient.prototype, 'getMe');
		const result = await h.run(
			{ parameters: byJson({ outsideWindow: 'skip' }) },
			to(DEMO.carol, DEMO.dave, DEMO.carol, DEMO.dave),
		);
		expect(result.error).toBeUndefined();
		expect(reads).toHaveBeenCalledTimes(1);
		expect(result.json.map((json) => json.sent_as)).toEqual(['text', null, 'text', null]);
		// Inputs that name the channel, and templates, need no such read.
		reads.mockClear();
		await h.run({
			parameters: byJson({
				jsonInput: JSON.stringify({
					channel: 'business',
					phoneNumber: DEMO.carol.phone,
					text: TEXT,
				}),
			}),
		});
		expect(reads).not.toHaveBeenCalled();
	});

	it('With both channels connected the service needs the channel, so such an input goes as given and the service says so; with only QR connected no window applies', async () => {
		const both = await h.run({ parameters: byJson({ outsideWindow: 'skip' }) }, to(DEMO.dave));
		expect(both.error?.message).toMatch(/[Cc]hannel/);
		expect(tools(both.calls)).toEqual(['send_message']);
		expect(both.calls[0]).toMatchObject({ status: 400, errorCode: 'invalid_input' });

		h.sandbox.inject.setChannel('business', false);
		const qr = await h.run({ parameters: byJson() }, to(DEMO.alice));
		expect(qr.error).toBeUndefined();
		expect(tools(qr.calls)).toEqual(['send_message']);
		expect(qr.json[0]).not.toHaveProperty('window');
	});
});
