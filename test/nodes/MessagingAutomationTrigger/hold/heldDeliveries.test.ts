import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO, type SandboxHandle } from '../../../sandbox';
import { signatureHeaders } from '../../../sandbox/webhooks/signing';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { activeMessageTrigger, messageDeliveries, useStoppedClock, waitFor } from '../fixtures';

/*
 * How grouped deliveries are held and settled (heldDeliveries.ts): when each is answered, how
 * many reads a burst costs, and what a 429, a late delivery or concurrent copies do. The sandbox
 * clock stands still and is moved by hand, except where a test measures answers on it.
 */

const QUIET_S = 0.4;
const grouping = (extra: INodeParameters = {}): INodeParameters => ({
	events: ['message.received'],
	groupQuickMessages: true,
	quietWindowSeconds: QUIET_S,
	longestWaitSeconds: 10,
	...extra,
});

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;

useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);
const activeTrigger = async (parameters: INodeParameters, apiKey?: string) =>
	(trigger = await activeMessageTrigger(sandbox, parameters, apiKey));

function say(text: string, afterMs = 100, from: { phone: string; name: string } = DEMO.alice) {
	sandbox.clock.advance(afterMs);
	const result = sandbox.inject.injectMessage({ from, text });
	expect(result.saved).toBe(true);
	return result.message as { id: string; timestamp: string };
}

const messageAttempts = () => messageDeliveries(sandbox, trigger);
const attemptOf = (messageId: string) =>
	messageAttempts().find((attempt) => attempt.body?.includes(`"id":"${messageId}"`));
const runs = () => trigger.executions.map((execution) => execution.items[0].json);
const texts = (json: IDataObject) =>
	(json.messages as Array<{ text: string }>).map((message) => message.text);
const reads = () => sandbox.calls().filter((call) => call.tool === 'get_messages');

async function settledAfter(deliveries: number) {
	await waitFor(() => messageAttempts().length >= deliveries, 20_000);
	await trigger.settled();
}

describe('held grouped deliveries', () => {
	it("answers a burst's earlier deliveries once the run holding them is recorded, and the last only once one read settled it", async () => {
		await activeTrigger(grouping({ quietWindowSeconds: 1 }));
		// Answers are timed on the sandbox clock, running at real speed for this test.
		sandbox.clock.setSpeed(1);
		const first = say('one', 0);
		say('two', 200);
		const last = say('three', 200);
		await settledAfter(3);

		expect(runs().map(texts)).toEqual([['one', 'two', 'three']]);
		expect(reads()).toHaveLength(1);
		const answeredAt = (id: string) => attemptOf(id)?.completedAt ?? Number.NaN;
		// Carried by the last one's run: answered once n8n answered that run's delivery, not before.
		expect(answeredAt(first.id)).toBeGreaterThanOrEqual(answeredAt(last.id));
		expect(answeredAt(first.id) - answeredAt(last.id)).toBeLessThan(1000);
		// The last delivery stayed unanswered through its quiet window: a stop meanwhile leaves it to the retry.
		expect(answeredAt(last.id) - Date.parse(last.timestamp)).toBeGreaterThanOrEqual(1000);
		expect(messageAttempts().every((attempt) => attempt.statusCode === 200)).toBe(true);
	});

	it.each([
		[0.4, 'n8n'],
		[4.5, 'n8n'],
	])(
		"with a quiet window of %s s, the run's delivery is answered by %s once it recorded the run, never before",
		async (quietWindowSeconds, answeredBy) => {
			await activeTrigger(grouping({ quietWindowSeconds }));
			sandbox.clock.setSpeed(1);
			say('hello', 0);
			await settledAfter(1);
			expect(runs().map(texts)).toEqual([['hello']]);
			const answers = trigger.requests.filter(
				(request) => !('ignored' in (request.body as object)),
			);
			expect(answers).toEqual([expect.objectContaining({ status: 200, answeredBy })]);
		},
	);

	it("leaves a run's delivery, retried or fresh, for n8n to answer even after 4.5 s of waiting for its read", async () => {
		await activeTrigger(grouping());
		sandbox.faults.add({ tool: 'get_messages', kind: 'delay', delayMs: 4500, times: 2 });
		// Held back by the service, as a retry after a stop is: sent 30 s after it was written.
		sandbox.webhooks.faults.reorderNext(2);
		say('sent again after a stop', 0);
		sandbox.clock.advance(30_000);
		say('hi from bob', 0, DEMO.bob);
		await settledAfter(2);

		expect(runs().map(texts).sort()).toEqual([['hi from bob'], ['sent again after a stop']]);
		const byWho = trigger.requests
			.filter((request) => !('ignored' in (request.body as object)))
			.map((request) => request.answeredBy)
			.sort();
		// Bob's fresh delivery waited past 4 s for the read too: still answered only once recorded.
		expect(byWho).toEqual(['n8n', 'n8n']);
	});

	it('waits out a 429 and still runs the burst whole, not message by message', async () => {
		await activeTrigger(grouping());
		sandbox.faults.add({ tool: 'get_messages', kind: 'rateLimited', times: 2 });
		for (const text of ['a', 'b', 'c']) say(text);
		await settledAfter(3);
		expect(runs().map(texts)).toEqual([['a', 'b', 'c']]);
		expect((runs()[0].burst as IDataObject).error).toBeUndefined();
		expect(reads().map((call) => call.status)).toEqual([429, 429, 200]);
	});

	it('runs the burst from a carried delivery when its last message was saved but its delivery has not come by the deadline; that delivery passes nothing on', async () => {
		await activeTrigger(grouping());
		say('first');
		say('second');
		// The third message is saved now, its delivery held back until Bob's event goes out.
		sandbox.webhooks.faults.reorderNext(2);
		say('third');
		// The read after the second message's quiet window sees the third: the first two are carried
		// by it, but no run holding them is recorded by their deadline, so the first starts it.
		await waitFor(() => reads().length >= 1 && messageAttempts().length >= 2);
		await trigger.settled();
		expect(runs().map(texts)).toEqual([['first', 'second', 'third']]);
		expect(messageAttempts().map((attempt) => attempt.statusCode)).toEqual([200, 200]);
		say('hello from bob', 100, DEMO.bob);
		await settledAfter(4);
		const passed = trigger.executions.filter((execution) => execution.items.length > 0);
		expect(passed.map((execution) => texts(execution.items[0].json)).sort()).toEqual([
			['first', 'second', 'third'],
			['hello from bob'],
		]);
	});

	it('starts one run for copies of one event that arrive together, and none for a second event of a held message', async () => {
		const secret = `whsec_${Buffer.from('held-copies-secret-32-bytes-long').toString('base64')}`;
		await activeTrigger(grouping({ registration: 'dashboard', signingSecret: secret }));
		const message = say('only once');
		const envelope = (eventId: string) =>
			JSON.stringify({
				id: eventId,
				type: 'message.received',
				created_at: new Date().toISOString(),
				api_version: '2026-10-01',
				account_id: DEMO.accountId,
				data: { message },
			});
		const post = async (eventId: string, index: number) => {
			const body = envelope(eventId);
			const response = await fetch(trigger.url('production'), {
				method: 'POST',
				headers: {
					...signatureHeaders([secret], `msg_copy_${index}`, Date.now(), body),
					'content-type': 'application/json',
				},
				body,
			});
			return (await response.json()) as IDataObject;
		};
		const answers = await Promise.all([
			post('evt_copy_one', 0),
			post('evt_copy_one', 1),
			post('evt_copy_one', 2),
			post('evt_copy_two', 3),
		]);
		await trigger.settled();
		expect(answers.filter((answer) => answer.duplicate === true)).toHaveLength(2);
		expect(runs().map(texts)).toEqual([['only once']]);
		expect(reads()).toHaveLength(1);
	});
});
