import { createRequire } from 'node:module';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { DEMO, type SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { activeMessageTrigger, messageDeliveries, useStoppedClock, waitFor } from '../fixtures';

/*
 * What a review of the held deliveries found: a delivery must never be answered before a read of
 * the conversation settled it, because an answered delivery is never sent again and a stop of n8n
 * would lose its burst. Each test here failed on the trigger that answered from the held messages
 * alone. Where answers are timed, the sandbox clock runs at real speed and the messages are written
 * in real time, with gaps far from every boundary.
 */

const grouping = (extra: INodeParameters = {}): INodeParameters => ({
	groupQuickMessages: true,
	quietWindowSeconds: 2,
	longestWaitSeconds: 30,
	...extra,
});

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;

useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);
const activeTrigger = async (parameters: INodeParameters) =>
	(trigger = await activeMessageTrigger(sandbox, parameters));

/** The logger n8n-core hands nodes: from n8n-core's own copies of @n8n/di and @n8n/backend-common. */
function coreLogger(): { warn: (message: string) => void } {
	const fromCore = createRequire(createRequire(__filename).resolve('n8n-core'));
	const { Container } = fromCore('@n8n/di') as { Container: { get(type: unknown): unknown } };
	const { Logger } = fromCore('@n8n/backend-common') as { Logger: unknown };
	return Container.get(Logger) as { warn: (message: string) => void };
}

const pause = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

type From = { phone: string; name?: string };

/** A message written now; `fromMe`: the account's, typed on the phone in `from`'s chat. */
function write(
	text: string,
	{ from = DEMO.alice as From, group = '', fromMe = false, savedLateMs = 0 } = {},
) {
	const result = sandbox.inject.injectMessage({
		from,
		text,
		...(group ? { group } : {}),
		...(fromMe ? { fromMe } : {}),
		...(savedLateMs ? { savedLateMs } : {}),
	});
	expect(result.saved).toBe(true);
	return result.message as { id: string; timestamp: string };
}

const messageAttempts = () => messageDeliveries(sandbox, trigger);
const attemptsOf = (id: string) =>
	messageAttempts().filter((attempt) => attempt.body?.includes(`"id":"${id}"`));
const reads = () => sandbox.calls().filter((call) => call.tool === 'get_messages');
const runs = () => trigger.executions.map((execution) => execution.items[0].json);
const texts = (json: IDataObject) =>
	(json.messages as Array<{ text: string }>).map((message) => message.text);

async function settledAfter(deliveries: number) {
	await waitFor(() => messageAttempts().length >= deliveries, 30_000);
	await trigger.settled();
}

/** Every message's delivery was answered 2xx only after a read made once the message was written. */
function answeredOnlyAfterARead(messages: Array<{ id: string; timestamp: string }>) {
	for (const message of messages) {
		const [attempt] = attemptsOf(message.id);
		const written = Date.parse(message.timestamp);
		const firstRead = reads()
			.map((call) => Date.parse(call.at))
			.filter((at) => at >= written)
			.sort((a, b) => a - b)[0];
		expect({ message: message.id, answered: attempt.completedAt }).toEqual({
			message: message.id,
			answered: expect.any(Number),
		});
		expect(attempt.completedAt).toBeGreaterThanOrEqual(firstRead);
	}
}

describe('held deliveries are answered only once a read settled them', () => {
	it("runs a message the account's reply cut off, and answers it only after the read that shows the reply", async () => {
		await activeTrigger(grouping());
		sandbox.clock.setSpeed(1);
		const first = write('is the shop open?');
		await pause(500);
		write('yes, until 6', { fromMe: true });
		await pause(500);
		const second = write('great, on my way');
		await settledAfter(2);

		expect(runs().map(texts)).toEqual([['is the shop open?'], ['great, on my way']]);
		expect((runs()[0].burst as IDataObject).closed_by).toBe('own_message');
		answeredOnlyAfterARead([first, second]);
	});

	it('keeps a group member’s burst whole after a read settled its first messages, and answers its last only after its own read', async () => {
		await activeTrigger(grouping({ longestWaitSeconds: 2.5 }));
		sandbox.clock.setSpeed(1);
		const group = DEMO.adminGroup.jid;
		write('alice: morning all', { group });
		const bob: Array<{ id: string; timestamp: string }> = [];
		for (const text of ['bob: one', 'bob: two', 'bob: three', 'bob: four', 'bob: five']) {
			await pause(bob.length === 0 ? 500 : 1000);
			bob.push(write(text, { from: DEMO.bob, group }));
		}
		await settledAfter(6);

		// Bob's chain is cut 2.5 s after its first message: the fourth starts the next burst.
		expect(runs().map(texts)).toEqual([
			['alice: morning all'],
			['bob: one', 'bob: two', 'bob: three'],
			['bob: four', 'bob: five'],
		]);
		answeredOnlyAfterARead(bob);
	});

	it('reads at once for a delivery the service sent long after its message, even for a conversation this process has not seen', async () => {
		await activeTrigger(grouping({ quietWindowSeconds: 5 }));
		sandbox.clock.setSpeed(1);
		// Held back by the service, as a retry is: sent 30 s after it was written.
		sandbox.webhooks.faults.reorderNext(2);
		const late = write('sent again after a restart');
		sandbox.clock.advance(30_000);
		write('hi from bob', { from: DEMO.bob });
		await settledAfter(2);

		const [attempt] = attemptsOf(late.id);
		expect(attempt.at - Date.parse(late.timestamp)).toBeGreaterThanOrEqual(30_000);
		expect(runs().map(texts).sort()).toEqual([['hi from bob'], ['sent again after a restart']]);
		// Its burst closed long ago: one read, not another quiet window of waiting.
		expect(attempt.completedAt - attempt.at).toBeLessThan(2500);
	});
});

describe('a burst longer than the hold', () => {
	it('hands back (503) the first deliveries no run holds by their 8.5 s, and answers the rest once the run is recorded', async () => {
		await activeTrigger(grouping({ quietWindowSeconds: 3 }));
		sandbox.clock.setSpeed(1);
		const written = [];
		for (let index = 1; index <= 6; index++) {
			if (index > 1) await pause(1500);
			written.push(write(`part ${index}`));
		}
		await settledAfter(6);

		expect(runs().map(texts)).toEqual([[1, 2, 3, 4, 5, 6].map((index) => `part ${index}`)]);
		// The burst closes 10.5 s after its first message: the first two deliveries' holds end before
		// (the service sends them again 30 s later); the others are answered once the run is recorded.
		expect(messageAttempts().map((attempt) => attempt.statusCode)).toEqual([
			503, 503, 200, 200, 200, 200,
		]);
		// A read before each of the first two deliveries' deadlines (either could have shown the
		// account's reply ending the burst there: its own run), and one that ran the burst.
		expect(reads().length).toBeLessThanOrEqual(4);
		answeredOnlyAfterARead(written);
	});
});

describe('a message the service saves late', () => {
	it('runs it in a run of its own, also when it was not the newest of the burst: every message in exactly one run', async () => {
		await activeTrigger(grouping({ quietWindowSeconds: 0.4 }));
		write('one');
		sandbox.clock.advance(200);
		write('three');
		await settledAfter(2);
		expect(runs().map(texts)).toEqual([['one', 'three']]);

		// Written between the two, saved only now: the read that ran the burst could not show it.
		sandbox.clock.advance(5000);
		write('two', { savedLateMs: 5100 });
		await settledAfter(3);
		// Its burst read again with it; the run claim passes on only what no run held before.
		expect(runs().map(texts)).toEqual([['one', 'three'], ['two']]);
		expect((runs()[1].burst as IDataObject).ran_before).toEqual(runs()[0].message_ids as string[]);
	});
});

describe('the log line for a burst that runs late', () => {
	it("measures lateness on the service's clock alone: a host clock 20 s ahead logs nothing, a delivery sent 30 s late does", async () => {
		const warn = vi.spyOn(coreLogger(), 'warn');
		const lateLines = () =>
			warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('runs late'));
		try {
			await activeTrigger(grouping({ quietWindowSeconds: 0.4 }));
			sandbox.clock.set(Date.now() - 20_000);
			write('on time, by a clock 20 s behind the host');
			await settledAfter(1);
			expect(lateLines()).toEqual([]);

			sandbox.clock.advance(5000);
			sandbox.webhooks.faults.reorderNext(2);
			write('sent again after a restart');
			sandbox.clock.advance(30_000);
			write('hi from bob', { from: DEMO.bob });
			await settledAfter(3);
			expect(lateLines()).toHaveLength(1);
			expect(lateLines()[0]).toMatch(/delivery (29|30) s after the message was written/);
		} finally {
			warn.mockRestore();
		}
	});
});

describe('takeover and the quiet window', () => {
	it("stops the bot for a burst when the pause command was typed during the burst's quiet window", async () => {
		await activeTrigger({
			...grouping({ quietWindowSeconds: 3 }),
			humanTakeover: true,
			handoverWords: 'human',
		});
		write('where is my order');
		sandbox.clock.advance(1000);
		write('/bot off', { fromMe: true });
		await settledAfter(1);

		expect(trigger.executions).toHaveLength(1);
		const [bot, people] = trigger.executions[0].outputs;
		expect(bot).toHaveLength(0);
		expect(people[0].json.takeover).toMatchObject({ paused: true, by: 'command' });
	});
});

describe('reads without grouping', () => {
	it('gives up a stalled read within its 3 s, not the 15 s of one look-up', async () => {
		await activeTrigger({ includeHistory: true });
		sandbox.faults.add({ tool: 'get_messages', kind: 'delay', delayMs: 20_000 });
		write('hello');
		await waitFor(() => trigger.executions.length >= 1, 30_000);
		const error = String(runs()[0].history_error);
		const waitedS = Number(/within ([\d.]+) s\b/.exec(error)?.[1]);
		expect(waitedS).toBeGreaterThan(0);
		expect(waitedS).toBeLessThanOrEqual(3);
	});
});
