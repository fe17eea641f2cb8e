import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ServiceClock } from '../../../../nodes/MessagingAutomationTrigger/receive/serviceClock';
import { DEMO, type SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { activeMessageTrigger, messageDeliveries, useStoppedClock, waitFor } from '../fixtures';

/*
 * The service's time as the trigger places it on its own clock. Service times here are made up
 * against the host's: only their differences matter. The clock reads local times through the
 * process's monotonic clock, so values agree to a millisecond, not exactly.
 */

/** The service's clock runs this far behind the host's. */
const SKEW = 20_000;
const seconds = (at: number) => Math.floor(at / 1000) * 1000;
const expectNear = (actual: number, expected: number) =>
	expect(Math.abs(actual - expected)).toBeLessThanOrEqual(2);

afterEach(() => void vi.useRealTimers());

describe('ServiceClock', () => {
	it("knows the service's time to a second from a delivery the service retried 30 s late", () => {
		const local = Date.now();
		const clock = new ServiceClock(`retried-${Math.random()}`);
		clock.observe({
			arrivedAt: local,
			writtenAt: local - SKEW - 30_000,
			sentAt: seconds(local - SKEW),
		});
		const estimate = clock.at(local);
		// Never ahead of the service (a read would vouch for messages not written yet), at most 1 s behind.
		expect(estimate).toBeLessThanOrEqual(local - SKEW + 1);
		expect(estimate).toBeGreaterThan(local - SKEW - 1000);
	});

	it('keeps what earlier deliveries taught it, for every conversation of the trigger', () => {
		const local = Date.now();
		const scope = `kept-${Math.random()}`;
		new ServiceClock(scope).observe({
			arrivedAt: local,
			writtenAt: local - SKEW - 5,
			sentAt: seconds(local - SKEW - 5),
		});
		const later = new ServiceClock(scope);
		later.observe({
			arrivedAt: local,
			writtenAt: local - SKEW - 30_000,
			sentAt: seconds(local - SKEW - 3000),
		});
		expectNear(later.at(local + 60_000), local + 60_000 - SKEW - 5);
	});

	it('takes nothing from a message stamped after its delivery was sent (a clock 60 s ahead)', () => {
		const local = Date.now();
		const clock = new ServiceClock(`ahead-${Math.random()}`);
		clock.observe({ arrivedAt: local, writtenAt: local - SKEW, sentAt: seconds(local - SKEW) });
		clock.observe({
			arrivedAt: local,
			writtenAt: local - SKEW + 60_000,
			sentAt: seconds(local - SKEW),
		});
		expectNear(clock.at(local), local - SKEW);
	});

	it('follows the host clock when it steps forward, at once', () => {
		vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
		const local = Date.now();
		const clock = new ServiceClock(`forward-${Math.random()}`);
		clock.observe({ arrivedAt: local, writtenAt: local - SKEW, sentAt: seconds(local - SKEW) });
		const [serviceNow, monotonicNow] = [clock.now(), performance.now()];
		vi.setSystemTime(Date.now() + 5000);
		// As much later on the service's clock as really passed, though the host's reads 5 s more.
		expectNear(clock.now() - serviceNow, performance.now() - monotonicNow);
	});
});

/*
 * In the trigger: a thrown clock makes every burst look closed at once, so each message runs alone.
 * The sandbox clock runs at real speed and the messages are written in real time, with gaps far
 * from every boundary.
 */

const grouping: INodeParameters = {
	groupQuickMessages: true,
	quietWindowSeconds: 2,
	longestWaitSeconds: 30,
};

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;

useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);

const pause = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const runsOf = (name: string) =>
	trigger.executions
		.map((execution) => execution.items[0]?.json as IDataObject)
		.filter((json) => (json.sender as IDataObject).name === name)
		.map((json) => (json.messages as Array<{ text: string }>).map((message) => message.text));

function write(text: string, from: { phone: string; name: string } = DEMO.alice, savedLateMs = 0) {
	expect(sandbox.inject.injectMessage({ from, text, savedLateMs }).saved).toBe(true);
}

/** Alice writes two quick messages half a second apart, and both deliveries are answered. */
async function aliceWritesTwo() {
	write('is the shop open?');
	await pause(500);
	write('on Sunday, I mean');
	await waitFor(
		() =>
			messageDeliveries(sandbox, trigger).filter(
				(attempt) => attempt.body?.includes(DEMO.alice.phone) && attempt.completedAt,
			).length >= 2,
		20_000,
	);
}

describe('the service clock in the trigger', () => {
	it('groups bursts as usual after a message stamped 60 s ahead', async () => {
		trigger = await activeMessageTrigger(sandbox, grouping);
		sandbox.clock.setSpeed(1);
		const took = trigger.tookUp((body) => body.includes('from the future'));
		write('from the future', DEMO.bob, -60_000);
		await took;
		await aliceWritesTwo();
		expect(runsOf(DEMO.alice.name)).toEqual([['is the shop open?', 'on Sunday, I mean']]);

		// Bob's burst closes a minute on: the service's clock gets there, and his next message settles it.
		sandbox.clock.advance(70_000);
		write('hello again', DEMO.bob);
		await waitFor(() => runsOf(DEMO.bob.name).length >= 2, 20_000);
	});

	it('groups bursts as usual after the host clock stepped 5 s forward', async () => {
		trigger = await activeMessageTrigger(sandbox, grouping);
		sandbox.clock.setSpeed(1);
		write('good morning', DEMO.bob);
		await waitFor(() => runsOf(DEMO.bob.name).length >= 1, 20_000);
		await trigger.settled();

		vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
		const serviceNow = sandbox.clock.now();
		vi.setSystemTime(Date.now() + 5000);
		// Only the host's clock steps: the service keeps its own time.
		sandbox.clock.set(serviceNow);
		await aliceWritesTwo();
		expect(runsOf(DEMO.alice.name)).toEqual([['is the shop open?', 'on Sunday, I mean']]);
	});

	it('holds a burst by the monotonic clock when the host clock steps 20 s forward during the hold: one read, one run, answered 200', async () => {
		trigger = await activeMessageTrigger(sandbox, grouping);
		sandbox.clock.setSpeed(1);
		write('good morning', DEMO.bob);
		await waitFor(() => runsOf(DEMO.bob.name).length >= 1, 20_000);
		await trigger.settled();
		const readsBefore = sandbox.calls().filter((call) => call.tool === 'get_messages').length;

		write('is the shop open?');
		await pause(500);
		write('on Sunday, I mean');
		await pause(300);
		vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
		const serviceNow = sandbox.clock.now();
		vi.setSystemTime(Date.now() + 20_000);
		sandbox.clock.set(serviceNow);
		await waitFor(() => runsOf(DEMO.alice.name).length >= 1, 20_000);
		await trigger.settled();

		expect(runsOf(DEMO.alice.name)).toEqual([['is the shop open?', 'on Sunday, I mean']]);
		const reads = sandbox.calls().filter((call) => call.tool === 'get_messages').length;
		expect(reads - readsBefore).toBe(1);
		const alice = await waitFor(() => {
			const answered = messageDeliveries(sandbox, trigger).filter((attempt) =>
				attempt.body?.includes(DEMO.alice.phone),
			);
			return answered.length >= 2 && answered;
		});
		expect(alice.map((attempt) => attempt.statusCode)).toEqual([200, 200]);
	});
});
