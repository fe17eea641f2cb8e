import { describe, expect, it } from 'vitest';

import { putBackTakeBacks } from '../../../support/processedData';
import { settledAfter } from '../fixtures';
import { useAnswerCatchUp } from './answerCatchUp';

/*
 * Review s9c: a second look at the fixes of review s9b (e28db3b). Each finding is an `it.fails`
 * beside a passing control, in n8n's engine with the real Send and Wait node behind a stand-in
 * waiting server (answers/realQuestions.ts), the sandbox clock moved by hand.
 */

const { h, resumes, question, ask, say, start, claimedBefore, pollLater } = useAnswerCatchUp();

/*
 * R9c-1: withoutStrayClaims (vouchedClaims.ts) keeps R9b-1 shut by a take-back: the poll's run of a
 * "1" that ran as an ordinary message finds `answer|<1>` fresh and `message|<1>` not, and takes the
 * answer claim back. A take-back is a write another process's whole-record write can undo
 * (test/support/processedData.ts putBackTakeBacks; S7-6 held because that run "asks nothing it
 * takes back"). Put back, `answer|<1>` reads as an earlier run's unended offer to the very run that
 * took it back (takeOverUnsettled, claimedBefore): it takes the offer over, and the question takes
 * the "1" that ran as a message: R9b-1 again.
 */
describe('review s9c: a stray answer claim put back (R9c-1)', () => {
	async function ranAsMessage(putBack: boolean) {
		const { trigger, poll } = await start();
		await ask(question());
		if (putBack) putBackTakeBacks();
		h.sandbox.webhooks.faults.loseNext(1);
		const one = say('1');
		// The run of the delivery's third attempt: n8n's own URL failed, so "1" ran as a message.
		claimedBefore([`message|${one.id}`]);
		await pollLater(poll);
		return trigger;
	}

	/*
	 * Fixed: the poll's run knows from its own claim that no earlier run claimed `answer|<1>` (it
	 * claimed it first), so the put-back never reads to it as an earlier run's offer.
	 */
	it('R9c-1: a "1" that ran as a message, its stray answer claim taken back and put back by another process\'s write: the question keeps waiting', async () => {
		await ranAsMessage(true);
		expect(resumes).toEqual([]);
	});

	it('control (R9b-1): the same without the write putting it back: the question keeps waiting', async () => {
		await ranAsMessage(false);
		expect(resumes).toEqual([]);
	});

	/*
	 * Open: the key put back stays in the record, and the person's next message, 4 minutes on, asks
	 * whether a run claimed the "1" as an answer (it is not that run's own message): it reads as an
	 * earlier run's unended offer, and the question takes the "1" that ran. Closing it needs an ask
	 * no put-back can fake (docs/answers-in-chat.md, Limits).
	 */
	it.fails(
		'R9c-1 (the next message\'s run): the stray claim put back, the person\'s next message leaves the "1" that ran alone',
		async () => {
			const trigger = await ranAsMessage(true);
			// The poll's 4 minutes put the "1" far enough before "thanks" (60 s) for it to ask.
			say('thanks');
			await settledAfter(h.sandbox, trigger, 1);
			await trigger.settled();
			expect(resumes).toEqual([]);
		},
	);
});
