import { describe, expect, it } from 'vitest';

import { entryOf, processedRecords, putBackTakeBacks } from '../../../support/processedData';
import type { N8nPollHost } from '../../../support/n8nPoll';
import { useRealQuestions } from '../answers/realQuestions';
import { catchUpBeside, quickGrouping } from './catchUpFixtures';

/*
 * Review s9c: a second look at the fixes of review s9b (e28db3b). Each finding is an `it.fails`
 * beside a passing control, in n8n's engine with the real Send and Wait node behind a stand-in
 * waiting server (answers/realQuestions.ts), the sandbox clock moved by hand.
 */

const MINUTE = 60_000;
const { h, resumes, activeTrigger, question, ask, say } = useRealQuestions();

async function start() {
	const trigger = await activeTrigger({ ...quickGrouping, quietWindowSeconds: 0.4 });
	const poll = await catchUpBeside(
		h.sandbox,
		trigger,
		h.sandbox.keys.owner,
		`${new URL(String(trigger.waitingBaseUrl)).origin}/webhook-waiting`,
	);
	await poll.activate();
	return { trigger, poll };
}

/** Claims as a run of the trigger ('trigger-1' in 'wf-test') made them. */
function claimedBefore(keys: string[]) {
	const record = processedRecords().get('wf-test/') ?? [];
	processedRecords().set('wf-test/', [
		...record,
		...keys.map((key) => entryOf(`trigger-1|${key}`)),
	]);
}

async function pollLater(poll: N8nPollHost) {
	h.sandbox.clock.advance(4 * MINUTE);
	await poll.poll();
	await poll.poll();
}

/*
 * R9c-1: withoutStrayAnswers (vouchedClaims.ts) keeps R9b-1 shut by a take-back: the poll's run of a
 * "1" that ran as an ordinary message finds `answer|<1>` fresh and `message|<1>` not, and takes the
 * answer claim back. A take-back is a write another process's whole-record write can undo
 * (test/support/processedData.ts putBackTakeBacks; S7-6 held because that run "asks nothing it
 * takes back"). Put back, `answer|<1>` reads as an earlier run's unended offer to the very run that
 * took it back (takeOverUnsettled, claimedBefore): it takes the offer over, and the question takes
 * the "1" that ran as a message: R9b-1 again.
 */
describe('review s9c: a stray answer claim put back (R9c-1)', () => {
	async function ranAsMessage(putBack: boolean) {
		const { poll } = await start();
		await ask(question());
		if (putBack) putBackTakeBacks();
		h.sandbox.webhooks.faults.loseNext(1);
		const one = say('1');
		// The run of the delivery's third attempt: n8n's own URL failed, so "1" ran as a message.
		claimedBefore([`message|${one.id}`]);
		await pollLater(poll);
	}

	it('R9c-1: a "1" that ran as a message, its stray answer claim taken back and put back by another process\'s write: the question keeps waiting', async () => {
		await ranAsMessage(true);
		expect(resumes).toEqual([]);
	});

	it('control (R9b-1): the same without the write putting it back: the question keeps waiting', async () => {
		await ranAsMessage(false);
		expect(resumes).toEqual([]);
	});
});
