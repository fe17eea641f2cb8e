import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO, type SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import {
	activeMessageTrigger,
	messageDeliveries,
	restartN8n,
	settledAfter,
	useStoppedClock,
	waitFor,
} from '../fixtures';

/*
 * A burst whose run n8n could not record (it answered 500) runs from the service's retry of the
 * delivery that started it: its other deliveries were answered 200 as carried by that run, so the
 * retry's read must settle the burst as the first read did, whatever was written since. The
 * sandbox clock stands still and is moved by hand.
 */

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;

useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);

/** Alice's message written `agoMs` before the service saved it and queued its event (now, on its clock). */
function writtenAgo(text: string, agoMs: number) {
	expect(sandbox.inject.injectMessage({ from: DEMO.alice, text, savedLateMs: agoMs }).saved).toBe(
		true,
	);
}

const textsOf = (json: IDataObject) =>
	(json.messages as Array<{ text: string } | undefined>).map((message) => message?.text);

describe('a burst whose run n8n could not record', () => {
	it("runs whole from its first message's retry after a restart, though the account wrote after the burst closed", async () => {
		trigger = await activeMessageTrigger(sandbox, {
			groupQuickMessages: true,
			quietWindowSeconds: 0.4,
			longestWaitSeconds: 30,
		});
		trigger.failToRecord(1);
		// The sandbox's seeded chat (the account's reply last) a minute before the burst, which starts
		// 0.1 s into a second: the trigger learns the service's time from whole-second signatures.
		sandbox.clock.set(Math.ceil(sandbox.clock.now() / 1000) * 1000 + 60_100);
		// A phone 1 s behind: each event is queued a second after its message's timestamp, the first one
		// after the burst closed (phone time), so its delivery starts the burst's run.
		writtenAgo('hello', 1000);
		sandbox.webhooks.faults.reorderNext(2);
		sandbox.clock.advance(200);
		writtenAgo('are you there?', 1000);
		const attempts = () => messageDeliveries(sandbox, trigger);
		await waitFor(() => attempts()[0]?.statusCode === 500, 20_000);
		// The second message's delivery, held back until Bob's goes out, is carried by that run: 200.
		sandbox.inject.injectMessage({ from: DEMO.bob, text: 'hi, Bob here' });
		await settledAfter(sandbox, trigger, 3);
		expect(attempts().map((attempt) => attempt.statusCode)).toEqual([500, 200, 200]);
		await restartN8n(trigger);
		sandbox.clock.advance(20_000);
		sandbox.inject.injectMessage({ from: DEMO.alice, text: 'on it', fromMe: true });
		sandbox.clock.advance(20_000);
		await settledAfter(sandbox, trigger, 4);

		// The second message's delivery waited for a recorded run holding it; none was, so at its
		// deadline it started the burst itself. The first one's retry then passes nothing on.
		const alice = trigger.executions
			.map((execution) => execution.items.map((item) => textsOf(item.json)))
			.filter((items) => !items.flat().includes('hi, Bob here'));
		expect(alice).toEqual([[['hello', 'are you there?']], []]);
	});
});
