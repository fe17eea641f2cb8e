import { beforeEach, describe, expect, it } from 'vitest';

import { type SandboxHandle } from '../../../sandbox';
import { failProcessedData } from '../../../support/processedData';
import type { N8nPollHost } from '../../../support/n8nPoll';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { activeMessageTrigger, useStoppedClock } from '../fixtures';
import { catchUpBeside } from './catchUpFixtures';

/*
 * When the Catch-Up poll lets a chat go (pollMemory.ts): only once it saw the chat settled, read
 * with nothing to run or run by a run whose claim went through. A run whose claim n8n's record of
 * runs failed fails (visible in the executions list), says so in one line, and its chats are read
 * and run again by the next poll, however many polls the failure lasts.
 */

const MINUTE = 60_000;
const grouping = { groupQuickMessages: true, quietWindowSeconds: 0.4, longestWaitSeconds: 10 };

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost | undefined;

useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);
beforeEach(() => void (trigger = undefined));

const texts = (poll: N8nPollHost) => poll.executions.flat().map((item) => item.json.text);

describe('Messaging Automation Catch-Up: what the poll lets go', () => {
	it("runs a lost message once after n8n's record of runs failed three polls in a row, one line each", async () => {
		trigger = await activeMessageTrigger(sandbox, grouping);
		const poll = await catchUpBeside(sandbox, trigger);
		await poll.activate();
		sandbox.webhooks.faults.loseNext(1);
		sandbox.clock.advance(MINUTE);
		sandbox.inject.injectMessage({
			from: { phone: '4917100039101', name: 'Person F' },
			text: 'still there?',
		});
		for (let n = 0; n < 3; n++) {
			sandbox.clock.advance(4 * MINUTE);
			failProcessedData(2);
			await poll.poll();
		}
		expect(texts(poll)).toEqual([]);
		for (let n = 0; n < 3; n++) {
			sandbox.clock.advance(4 * MINUTE);
			await poll.poll();
		}

		expect(texts(poll)).toEqual(['still there?']);
		expect(
			poll.warnings.filter((line) => line.includes('the next Catch-Up poll catches them up again')),
		).toHaveLength(3);
	});

	it('leaves a chat whose run has not ended yet, however long, and reads it again once that run failed', async () => {
		trigger = await activeMessageTrigger(sandbox, grouping);
		const poll = await catchUpBeside(sandbox, trigger);
		await poll.activate();
		sandbox.webhooks.faults.loseNext(1);
		sandbox.clock.advance(MINUTE);
		sandbox.inject.injectMessage({
			from: { phone: '4917100039102', name: 'Person H' },
			text: 'my parcel never came',
		});
		poll.holdRuns = true;
		const emitted: number[] = [];
		for (let n = 0; n < 8; n++) {
			sandbox.clock.advance(4 * MINUTE);
			emitted.push(await poll.poll());
		}
		expect(emitted).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
		failProcessedData(2);
		await poll.releaseRuns();
		poll.holdRuns = false;
		for (let n = 0; n < 2; n++) {
			sandbox.clock.advance(4 * MINUTE);
			await poll.poll();
		}

		expect(texts(poll)).toEqual(['my parcel never came']);
	});
});
