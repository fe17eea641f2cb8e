import { randomInt } from 'node:crypto';

import { describe, expect, it } from 'vitest';
import { executionError, nodeOutput } from '../support/n8nRestApi.mjs';
import { n8nApi, sandboxControl, sandboxCredential, unique } from './support/context.mjs';
import { actionWorkflow } from './support/workflows.mjs';

/*
 * Send a message on Business in a real n8n, against a customer whose last message is 25 hours old
 * by the sandbox's clock (and one who just wrote): the window decides before anything is sent.
 */

interface RecordedCall {
	tool: string;
	idempotencyKey: string | null;
	input: Record<string, unknown>;
	status: number;
	replayed: boolean;
}

const HOUR = 3_600_000;

/** A Business customer of this test alone, whose last message was `msAgo` ago; when it was. */
async function customerWhoWrote(msAgo: number): Promise<{ phone: string; wroteAt: string }> {
	const phone = `9198${String(randomInt(10 ** 8)).padStart(8, '0')}`;
	const { message } = await sandboxControl<{ message: { timestamp: string } }>(
		'POST',
		'/inject/message',
		{
			channel: 'business',
			from: { phone, name: 'Window Customer' },
			text: 'Hi',
			savedLateMs: msAgo,
		},
	);
	return { phone, wroteAt: message.timestamp };
}

async function callsTo(phone: string): Promise<RecordedCall[]> {
	const { calls } = await sandboxControl<{ calls: RecordedCall[] }>('GET', '/calls');
	return calls.filter((call) => call.input?.phoneNumber === phone && call.status !== 429);
}

const sendTo = (phone: string, extra: Record<string, unknown>) => ({
	resource: 'message',
	operation: 'send',
	channel: 'business',
	sendTo: 'phoneNumber',
	phoneNumber: phone,
	messageType: 'text',
	text: 'Your refund is on its way',
	...extra,
});

describe('Send a message on Business and the 24-hour window, in a real n8n', () => {
	it(
		'25 hours after the customer wrote: the template goes instead, once also on a rerun; Stop sends nothing and says when the window closed; Skip marks the item',
		{ tags: ['every-line'] },
		async () => {
			const api = await n8nApi();
			const credential = await sandboxCredential(api);
			const { phone, wroteAt } = await customerWhoWrote(25 * HOUR);
			const closedSince = new Date(Date.parse(wroteAt) + 24 * HOUR).toISOString();
			const run = async (extra: Record<string, unknown>) => {
				const workflow = await api.createWorkflow(
					actionWorkflow(unique('e2e business window'), credential, sendTo(phone, extra)),
				);
				return async () =>
					await api.waitForExecution((await api.runManually(workflow.id, 'Start')).executionId);
			};

			const template = await run({
				outsideWindow: 'template',
				templateName: 'order_update',
				templateLanguage: 'en',
				recipientOptInConfirmed: true,
				templateVariables: 'values',
				templateParameters: 'Dave, 1042, refunded',
				options: { idempotencyKey: unique('e2e-window') },
			});
			const first = await template();
			expect(executionError(first)).toBeUndefined();
			expect(nodeOutput(first, 'Action')?.[0]).toMatchObject({
				status: 'accepted',
				sent_as: 'template',
				window: { state: 'closed', closed_since: closedSince },
			});
			const again = await template();
			expect(again.status).toBe('success');
			const sends = (await callsTo(phone)).filter((call) => call.tool === 'send_message');
			expect(sends.map((call) => [call.input.templateName, call.replayed])).toEqual([
				['order_update', false],
				['order_update', true],
			]);

			const stopped = await (await run({}))();
			expect(stopped.status).toBe('error');
			expect(executionError(stopped)).toContain(`window closed at ${closedSince}`);
			const skipped = await (await run({ outsideWindow: 'skip' }))();
			expect(nodeOutput(skipped, 'Action')?.[0]).toMatchObject({ sent: false, sent_as: null });
			expect((await callsTo(phone)).filter((call) => call.tool === 'send_message')).toHaveLength(2);
		},
	);

	it('a customer who wrote an hour ago gets the text after one check', async () => {
		const api = await n8nApi();
		const credential = await sandboxCredential(api);
		const { phone } = await customerWhoWrote(HOUR);
		const workflow = await api.createWorkflow(
			actionWorkflow(unique('e2e business window open'), credential, sendTo(phone, {})),
		);
		const execution = await api.waitForExecution(
			(await api.runManually(workflow.id, 'Start')).executionId,
		);
		expect(executionError(execution)).toBeUndefined();
		expect(nodeOutput(execution, 'Action')?.[0]).toMatchObject({
			sent_as: 'text',
			window: { state: 'open' },
		});
		expect((await callsTo(phone)).map((call) => call.tool)).toEqual([
			'check_recipient_send_options',
			'send_message',
		]);
	});
});
