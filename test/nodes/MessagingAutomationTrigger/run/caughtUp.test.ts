import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO, type SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { failProcessedData } from '../../../support/processedData';
import { activeMessageTrigger, messageDeliveries, useStoppedClock, waitFor } from '../fixtures';

/*
 * Catch Up Missed Messages (run/caughtUp.ts): the service saves a message and never delivers its
 * event (lost before it was queued, or its delivery ran out of retries); when the person writes
 * again, the read that burst makes anyway shows it, and it runs once, in its own burst, marked
 * caught up. The sandbox clock stands still and is moved by hand.
 */

const grouping = (extra: INodeParameters = {}): INodeParameters => ({
	groupQuickMessages: true,
	quietWindowSeconds: 0.4,
	longestWaitSeconds: 10,
	...extra,
});
const MINUTE = 60_000;

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;

useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);

async function activeTrigger(parameters: INodeParameters = grouping()) {
	trigger = await activeMessageTrigger(sandbox, parameters);
	// Past the activation's slack (catchUp.ts): what follows was written after the trigger existed.
	sandbox.clock.advance(2 * MINUTE);
}

function say(text: string, afterMs = 0, extra: { fromMe?: boolean } = {}) {
	sandbox.clock.advance(afterMs);
	const result = sandbox.inject.injectMessage({ from: DEMO.alice, text, ...extra });
	expect(result.saved).toBe(true);
	return result.message as { id: string };
}

const reads = () => sandbox.calls().filter((call) => call.tool === 'get_messages');
/** Each run's items as they left the trigger's step: their texts, and caught_up where set. */
const runs = () =>
	trigger.executions.map((execution) =>
		execution.outputs.flat().map((item) => ({
			text: item.json.text,
			...(item.json.caught_up ? { caught_up: item.json.caught_up as IDataObject } : {}),
		})),
	);

async function settledAfter(deliveries: number, executions = 1) {
	await waitFor(() => messageDeliveries(sandbox, trigger).length >= deliveries, 20_000);
	await waitFor(() => trigger.executions.length >= executions, 20_000);
	await trigger.settled();
}

describe('catching up a message the service saved but never delivered', () => {
	it.each([
		['whose event was never queued', 'lose'],
		['whose delivery ran out of retries', 'exhaust'],
	] as const)(
		'runs a message %s once, in its own burst, marked caught up, when the person writes again, with no extra read',
		async (_, fault) => {
			await activeTrigger();
			if (fault === 'lose') sandbox.webhooks.faults.loseNext(1);
			else sandbox.webhooks.faults.exhaustNext(1);
			say('I need help with order 4411');
			say('hello?', 3 * MINUTE);
			await settledAfter(fault === 'lose' ? 1 : 2);

			expect(runs()).toEqual([
				[
					{
						text: 'I need help with order 4411',
						caught_up: {
							reason: 'event never delivered',
							// Three minutes on the sandbox clock, plus the test's own real seconds.
							age_seconds: expect.toSatisfy((age: number) => age >= 180 && age < 190) as unknown,
						},
					},
					{ text: 'hello?' },
				],
			]);
			expect(reads()).toHaveLength(1);
			const [caught] = trigger.executions[0].outputs.flat();
			expect(caught.json).toMatchObject({
				event_type: 'message.received',
				conversation_id: `${DEMO.alice.phone}@s.whatsapp.net`,
				burst: { message_count: 1, closed_by: 'quiet_window' },
			});
			expect(caught.json.event_id).toMatch(/^evt_caught_up:/);
		},
	);

	it('runs nothing for a delivery of the caught-up message that comes after all', async () => {
		await activeTrigger();
		sandbox.webhooks.faults.loseNext(1);
		say('is anyone there');
		say('hello?', MINUTE);
		await settledAfter(1);
		const [caught] = trigger.executions[0].outputs.flat();
		const message = (caught.json.messages as IDataObject[])[0];

		// The service repairs the gap: the message's event comes late.
		sandbox.clock.advance(MINUTE);
		sandbox.webhooks.emit('acc_demo', 'message.received', { message });
		await settledAfter(2, 2);

		expect(runs()).toEqual([
			[{ text: 'is anyone there', caught_up: expect.any(Object) as unknown }, { text: 'hello?' }],
			[],
		]);
	});

	it('adds nothing when every event was delivered: each burst runs once, one read each', async () => {
		await activeTrigger();
		say('first question');
		await settledAfter(1);
		say('second question', MINUTE);
		await settledAfter(2, 2);

		expect(runs()).toEqual([[{ text: 'first question' }], [{ text: 'second question' }]]);
		expect(reads()).toHaveLength(2);
	});

	it('catches up nothing while n8n cannot say what ran before (its database failing): a message that ran is never run again', async () => {
		await activeTrigger();
		say('first question');
		await settledAfter(1);
		// The store fails for the next burst's claim, its retry included: that run goes on, its
		// earlier message (which no account message followed) is not taken for a missed one.
		failProcessedData(2);
		say('second question', 3 * MINUTE);
		await settledAfter(2, 2);

		expect(runs()).toEqual([[{ text: 'first question' }], [{ text: 'second question' }]]);
	});

	it('never catches up a message written before the workflow was activated', async () => {
		say('written while no trigger existed');
		trigger = await activeMessageTrigger(sandbox, grouping());
		say('hello?', 5 * MINUTE);
		await settledAfter(1);

		expect(runs()).toEqual([[{ text: 'hello?' }]]);
	});

	it('leaves a missed message with Catch Up Missed Messages off', async () => {
		await activeTrigger(grouping({ catchUpMissed: false }));
		sandbox.webhooks.faults.loseNext(1);
		say('lost');
		say('hello?', 3 * MINUTE);
		await settledAfter(1);

		expect(runs()).toEqual([[{ text: 'hello?' }]]);
	});

	it('leaves a missed message older than the limit', async () => {
		trigger = await activeMessageTrigger(sandbox, grouping({ catchUpHours: 0.25 }));
		// Activated two hours ago; the lost message needs no delivery, so its time can be 20 min back.
		trigger.savedStaticData = {
			...trigger.savedStaticData,
			activatedAt: Date.now() - 2 * 60 * MINUTE,
		};
		sandbox.clock.set(Date.now() - 20 * MINUTE);
		sandbox.webhooks.faults.loseNext(1);
		say('lost twenty minutes ago');
		sandbox.clock.set(Date.now());
		say('hello?');
		await settledAfter(1);

		expect(runs()).toEqual([[{ text: 'hello?' }]]);
	});

	it('leaves a missed message the account wrote after (a reply typed on the phone answered it)', async () => {
		await activeTrigger();
		sandbox.webhooks.faults.loseNext(1);
		say('lost');
		say('on it, one moment', 30_000, { fromMe: true });
		say('thanks!', MINUTE);
		await settledAfter(1);

		expect(runs()).toEqual([[{ text: 'thanks!' }]]);
	});
});
