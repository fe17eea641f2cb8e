import type { IDataObject } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { WindowChecks } from '../../../../../nodes/MessagingAutomation/actions/businessWindow/windowChecks';
import type { MessagingClient } from '../../../../../nodes/shared/client/client';
import { DEMO } from '../../../../sandbox';
import { fieldsParameters, useHarness } from '../../harness';
import { customerWhoWrote, ownBusinessMessages, timePassesAfter } from './fixtures';

/* One read per recipient per run, while what it read still holds; never past the window's end. */

const NOW = Date.parse('2026-11-27T12:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function counted(answer: IDataObject) {
	const asked: unknown[] = [];
	const client = {
		callTool: async (_name: string, input: unknown) => {
			asked.push(input);
			return { data: answer };
		},
	} as unknown as MessagingClient;
	return { client, asked };
}

/** How many reads one recipient's items have made, after an item at each of `minutes` past NOW. */
async function readsAfter(answer: IDataObject, minutes: number[]): Promise<number[]> {
	const { client, asked } = counted(answer);
	let now = NOW;
	const checks = new WindowChecks(client, () => now);
	const counts: number[] = [];
	for (const minute of minutes) {
		now = NOW + minute * MINUTE;
		await checks.state({ channel: 'business', phoneNumber: '5511987654321' });
		counts.push(asked.length);
	}
	return counts;
}

describe('WindowChecks', () => {
	it('reads each recipient once, whether named by phone number or conversation', async () => {
		const { client, asked } = counted({ needs_approved_template: true });
		const checks = new WindowChecks(client, () => NOW);
		await checks.state({ channel: 'business', phoneNumber: '5511987654321' });
		await checks.state({ channel: 'business', conversationId: '5511987654321' });
		await checks.state({ channel: 'business', phoneNumber: '919876543210' });
		expect(asked).toHaveLength(2);
	});

	it('reads again when a window it read as open is about to close during the run', async () => {
		const answer = {
			customer_service_window_open: true,
			window_expires_at: new Date(NOW + HOUR).toISOString(),
		};
		expect(await readsAfter(answer, [0, 30, 50])).toEqual([1, 1, 2]);
	});

	it('An open read whose end the service does not say holds for 15 minutes', async () => {
		expect(await readsAfter({ customer_service_window_open: true }, [0, 14, 15])).toEqual([
			1, 1, 2,
		]);
	});
});

describe('the window read in a run of the node', () => {
	const h = useHarness();

	afterEach(() => {
		vi.restoreAllMocks();
	});

	const send = (phone: string) =>
		fieldsParameters(
			'send_message',
			{ channel: 'business', phoneNumber: phone, text: 'Your refund is on its way' },
			{ outsideWindow: 'skip' },
		);
	const tools = (calls: Array<{ tool: string }>) => calls.map((call) => call.tool);

	it("A read that found the window open holds until 15 minutes before the window's end; after that the next item to that person reads again", async () => {
		// A window read with 1 minute left, and the same person's next item 5 minutes later.
		const { phone } = customerWhoWrote(h, '5511900000001', 24 * HOUR - MINUTE);
		timePassesAfter(h, 'send_message', 5 * MINUTE);
		const result = await h.run({ parameters: send(phone) }, [{}, {}]);
		expect(result.error).toBeUndefined();
		expect(tools(result.calls)).toEqual([
			'check_recipient_send_options',
			'send_message',
			'check_recipient_send_options',
		]);
		expect(result.json.map((json) => json.sent_as)).toEqual(['text', null]);
		expect(result.json[1]).toMatchObject({ sent: false, window: { state: 'closed' } });
		expect(ownBusinessMessages(h)).toHaveLength(1);
	});

	it('A failed read is not remembered: the next item to that person asks again', async () => {
		h.sandbox.faults.add({ tool: 'check_recipient_send_options', kind: 'toolError422' });
		const result = await h.run({ parameters: send(DEMO.carol.phone), continueOnFail: true }, [
			{},
			{},
		]);
		expect(tools(result.calls)).toEqual([
			'check_recipient_send_options',
			'check_recipient_send_options',
			'send_message',
		]);
		expect(result.json[0]).toHaveProperty('error');
		expect(result.json[1]).toMatchObject({ sent_as: 'text' });
	});

	it('The check is a read: a key without the read scope stops the send with the permission error before anything is sent', async () => {
		const { key } = h.sandbox.inject.createKey({ name: 'send-only', scopes: ['messenger.send'] });
		h.engine.credentialsHelper.set('messagingAutomationApi', {
			apiKey: key,
			baseUrl: `${h.sandbox.url}/`,
			authScheme: 'bearer',
		});
		const result = await h.run({ parameters: send(DEMO.carol.phone) });
		expect(result.error?.message).toMatch(/permission|scope/i);
		expect(result.calls.map((call) => [call.tool, call.status])).toEqual([
			['check_recipient_send_options', 403],
		]);
		expect(ownBusinessMessages(h)).toHaveLength(0);
	});
});
