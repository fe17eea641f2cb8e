import { describe, expect, it } from 'vitest';

import { failProcessedData } from '../../../support/processedData';
import type { N8nPollHost } from '../../../support/n8nPoll';
import { catchUpBeside, useCatchUpBesideTrigger } from './catchUpFixtures';

/*
 * When the Catch-Up poll lets a chat go (pollMemory.ts): only once it saw the chat settled, read
 * with nothing to run or run by a run whose claim went through. A run whose claim n8n's record of
 * runs failed fails (visible in the executions list), says so in one line, and its chats are read
 * and run again by the next poll, however many polls the failure lasts.
 */

const MINUTE = 60_000;
const pair = useCatchUpBesideTrigger();

const texts = (poll: N8nPollHost) => poll.executions.flat().map((item) => item.json.text);

/** The poll beside a live trigger, and a person's message a minute later whose event was lost. */
async function lostMessage(phone: string, text: string): Promise<N8nPollHost> {
	const { poll } = await pair.start();
	const sandbox = pair.sandbox();
	sandbox.webhooks.faults.loseNext(1);
	sandbox.clock.advance(MINUTE);
	sandbox.inject.injectMessage({ from: { phone, name: 'Person' }, text });
	return poll;
}

/** Polls `times` times, each 4 minutes of the sandbox's clock after the last; what each emitted. */
async function polls(poll: N8nPollHost, times: number, before?: () => void): Promise<number[]> {
	const emitted: number[] = [];
	for (let n = 0; n < times; n++) {
		pair.sandbox().clock.advance(4 * MINUTE);
		before?.();
		emitted.push(await poll.poll());
	}
	return emitted;
}

describe('Messaging Automation Catch-Up: what the poll lets go', () => {
	it("runs a lost message once after n8n's record of runs failed three polls in a row, one line each", async () => {
		const poll = await lostMessage('4917100039101', 'still there?');
		await polls(poll, 3, () => failProcessedData(2));
		expect(texts(poll)).toEqual([]);
		await polls(poll, 3);

		expect(texts(poll)).toEqual(['still there?']);
		expect(
			poll.warnings.filter((line) =>
				line.includes('could not check whether this run was handed to n8n before; tried once'),
			),
		).toHaveLength(3);
	});

	it('leaves a chat whose run has not ended yet for up to 10 polls, and reads it again once that run failed', async () => {
		const poll = await lostMessage('4917100039102', 'my parcel never came');
		poll.holdRuns = true;
		expect(await polls(poll, 8)).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
		failProcessedData(2);
		await poll.releaseRuns();
		poll.holdRuns = false;
		await polls(poll, 2);

		expect(texts(poll)).toEqual(['my parcel never came']);
	});
});

/*
 * A test run reads the active poll's memory, and trusts a run still going there only while that
 * activation polls: past three of its Poll Times' polls (the service's clock) it takes the
 * activation for ended, since n8n gives a poll node no close (R11c-3, review11c.test.ts).
 */
describe('Messaging Automation Catch-Up: a test run beside a run still going', () => {
	const everyTenMinutes = { pollTimes: { item: [{ mode: 'everyX', value: 10, unit: 'minutes' }] } };

	/** A lost message, its run emitted by a poll of a 10-minute Poll Times and still going. */
	async function heldAtSlowPace(): Promise<N8nPollHost> {
		const sandbox = pair.sandbox();
		const trigger = await pair.startTrigger();
		const poll = await catchUpBeside(sandbox, trigger, undefined, undefined, everyTenMinutes);
		await poll.activate();
		sandbox.webhooks.faults.loseNext(1);
		sandbox.clock.advance(MINUTE);
		sandbox.inject.injectMessage({
			from: { phone: '4917100039103', name: 'Person' },
			text: 'is the shop open?',
		});
		poll.holdRuns = true;
		sandbox.clock.advance(10 * MINUTE);
		expect(await poll.poll()).toBe(1);
		return poll;
	}
	const shown = async (poll: N8nPollHost) => (await poll.testRun()).map((item) => item.json.text);

	it("hides it within three of the activation's Poll Times, however long the run takes", async () => {
		const poll = await heldAtSlowPace();
		pair.sandbox().clock.advance(29 * MINUTE);
		expect(await shown(poll)).toEqual([]);
	});

	it('shows it once the activation missed three of its polls', async () => {
		const poll = await heldAtSlowPace();
		pair.sandbox().clock.advance(31 * MINUTE);
		expect(await shown(poll)).toEqual(['is the shop open?']);
	});
});
