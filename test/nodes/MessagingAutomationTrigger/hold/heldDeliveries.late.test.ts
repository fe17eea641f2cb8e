import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO, type SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { activeMessageTrigger, messageDeliveries, useStoppedClock, waitFor } from '../fixtures';

/*
 * A burst that reaches the trigger late runs once (heldPlan.ts, runClaim.ts): the messages of a
 * phone that was offline, delivered together long after they were written, and a service whose
 * event queue lags behind its messages. The run's identity is its messages, not the event that
 * happened to close it. The sandbox clock stands still and is moved by hand.
 */

const grouping: INodeParameters = {
	groupQuickMessages: true,
	quietWindowSeconds: 5,
	longestWaitSeconds: 30,
};

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;

useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);

/** A message written `agoMs` before the service saved it and queued its event (now, on its clock). */
function writtenAgo(text: string, agoMs: number, from = DEMO.alice) {
	const result = sandbox.inject.injectMessage({ from, text, savedLateMs: agoMs });
	expect(result.saved).toBe(true);
}

/** Every execution's items as texts: a copy of a recorded run passes none. */
const executions = () =>
	trigger.executions.map((execution) => execution.items.map((item) => textsOf(item.json)));
const textsOf = (json: IDataObject) =>
	(json.messages as Array<{ text: string }>).map((message) => message.text);

async function settledAfter(deliveries: number) {
	await waitFor(() => messageDeliveries(sandbox, trigger).length >= deliveries, 20_000);
	await trigger.settled();
}

describe('a burst that arrives late', () => {
	it('runs once, holding all three in written order, when a phone sends three messages written 30 s earlier together', async () => {
		trigger = await activeMessageTrigger(sandbox, grouping);
		writtenAgo('on the train', 30_000);
		writtenAgo('no signal here', 29_700);
		writtenAgo('call me later?', 29_400);
		await settledAfter(3);

		expect(executions()).toEqual([[['on the train', 'no signal here', 'call me later?']]]);
	});

	it.each([20, 300, 1000])(
		'runs once, holding all three in written order, when a phone 30 s late saves and delivers its three messages one after another, %i ms apart',
		async (gapMs) => {
			trigger = await activeMessageTrigger(sandbox, grouping);
			const texts = ['on the train', 'no signal here', 'call me later?'];
			for (const [index, text] of texts.entries()) {
				if (index > 0) {
					await new Promise((resolve) => setTimeout(resolve, gapMs));
					sandbox.clock.advance(gapMs);
				}
				// Written 0.3 s apart, 30 s before the first of them was saved.
				writtenAgo(text, 30_000 + (gapMs - 300) * index);
			}
			await settledAfter(3);

			expect(executions()).toEqual([[texts]]);
		},
	);

	it('runs a two-message burst once when the service queues each event 7 s after its message', async () => {
		trigger = await activeMessageTrigger(sandbox, grouping);
		writtenAgo('hello', 7000);
		sandbox.clock.advance(300);
		writtenAgo('are you there?', 7000);
		await settledAfter(2);

		expect(executions()).toEqual([[['hello', 'are you there?']]]);
	});

	it("runs once when the burst's later deliveries come after its first one's run, settled by the same read", async () => {
		trigger = await activeMessageTrigger(sandbox, grouping);
		writtenAgo('first', 30_000);
		// The two later events are held back until Bob's goes out; their messages are saved at once.
		sandbox.webhooks.faults.reorderNext(3);
		writtenAgo('second', 29_700);
		writtenAgo('third', 29_400);
		await waitFor(() => trigger.executions.length >= 1);
		await trigger.settled();
		sandbox.inject.injectMessage({ from: DEMO.bob, text: 'hi, Bob here' });
		await settledAfter(4);

		// The later two are carried by the first one's run, which this process no longer waits on when
		// they come: at their deadline one of them starts the burst again, and that run passes nothing on.
		const alice = executions().filter((items) => !items.flat().includes('hi, Bob here'));
		expect(alice).toEqual([[['first', 'second', 'third']], []]);
	});
});

describe('a phone whose clock runs behind', () => {
	// Review finding 8: the late-upload rule compared the service's queue time with the phone's
	// timestamps, so every burst of a phone 60 s behind counted as uploaded late and its early
	// deliveries went back (503).
	it('answers every delivery of a burst typed 1 s apart at its first attempt, as with a clock that is right', async () => {
		trigger = await activeMessageTrigger(sandbox, grouping);
		// A burst that closes within its first delivery's hold: a longer one's first deliveries go back
		// (503) whatever the clock, since no run holds them by their deadline.
		const texts = ['hi', 'I ordered', 'a blue lamp'];
		for (const [index, text] of texts.entries()) {
			if (index > 0) {
				await new Promise((resolve) => setTimeout(resolve, 1000));
				sandbox.clock.advance(1000);
			}
			// Written now, stamped by a phone clock 60 s behind.
			writtenAgo(text, 60_000);
		}
		await settledAfter(texts.length);

		expect(executions()).toEqual([[texts]]);
		expect(messageDeliveries(sandbox, trigger).map((attempt) => attempt.statusCode)).toEqual(
			texts.map(() => 200),
		);
	});
});
