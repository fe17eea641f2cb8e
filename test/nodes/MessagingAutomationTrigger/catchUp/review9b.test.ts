import { describe, expect, it } from 'vitest';

import { settledAfter } from '../fixtures';
import { useAnswerCatchUp } from './answerCatchUp';

/*
 * Review s9b, of the Catch-Up poll's answer bursts (8799f22, bc3f807: catchUp/chatCatchUp.ts,
 * answerBursts in catchUp.ts, the poll through answerRoute.ts and the run's claim). Each finding is
 * an `it.fails` beside a passing control, in n8n's engine with the real Send and Wait node behind a
 * stand-in waiting server (answers/realQuestions.ts), the sandbox clock moved by hand.
 *
 * R9b-1: a "1" that ran as an ordinary message (its run claimed `message|<id>` and never
 * `answer|<id>`: the delivery's third attempt while n8n's own URL did not answer, docs/answers-in-
 * chat.md "run as normal messages") while the question still waits: the poll's item offers it, and
 * its run's first claim of `answer|<id>` is taken by claimedBefore (answerReoffer.ts) for an
 * earlier run's claim as an answer: the run takes the "offer" over and the question takes the "1".
 * The "1" ran as a message AND resumed the question (R9-7's case, through the poll).
 *
 * R9b-2: a lost message that may answer a question by its shape (no question mark, after the
 * account's question) but answers nothing the poll can offer (the question is another n8n's, or no
 * longer waits) is in neither of the poll's lists: unansweredBursts leaves it as a possible answer,
 * and its answer burst has no offer. The trigger, delivered it, runs it; the poll never does.
 *
 * R9b-3: a lost reply that quotes a question further back than the poll's one page (50 messages):
 * the poll's lists judge it on that page alone (answerBursts and unansweredBursts: questionOf finds
 * no quoted question), so it is no possible answer and runs as an ordinary message, while the
 * question keeps waiting. The trigger, delivered it, reads back to the quoted question (up to
 * QUESTION_PAGES) and offers it; the poll's own route would too (findAnswers), but is never asked.
 *
 * R9b-4: a reply written while the workflow was inactive is offered by the poll's first poll of the
 * next activation, and the question takes it. docs/answers-in-chat.md says "an answer written while
 * the trigger was inactive is never offered" and "A first answer that never reached n8n (the
 * trigger was inactive) still decides: later replies do not answer that question, its links still
 * do" (R8-8 lists offering one as a fault). The poll's run claims it fresh, as its own, and its
 * item says `answer to a Send and Wait question that still waited`, not `written while the
 * workflow was inactive`.
 *
 * R9b-5 (log): a caught-up answer the question takes is logged as run: "caught up 1 message(s) <the
 * 1> ... saved by the service but not run (answer to a Send and Wait question that still waited);
 * they run now, once" (runClaim.ts logCatchUp, before the offer), and the execution is marked
 * `messaging_automation_caught_up: <the 1>`. Nothing runs it: the question took it. The ops person
 * looks for a run of the "1" that never comes.
 */

const MINUTE = 60_000;
const {
	h,
	resumes,
	question,
	ask,
	say,
	accountWrites,
	asked,
	texts,
	start,
	claimedBefore,
	pollLater,
	passedOn,
} = useAnswerCatchUp();

/** A question of another n8n, as the account sent it: signed, taking answers in the chat. */
const FOREIGN_QUESTION =
	'Approve the refund? Reply 1 or 2. https://staging-n8n.example.com/webhook-waiting/991?chat=1&approved=true&signature=abc';

describe('review s9b: the Catch-Up poll offers a "1" that ran as a message (R9b-1)', () => {
	it('R9b-1: a "1" whose run ran it as an ordinary message (claimed `message|` only, the delivery gave up on a probe n8n did not answer): the poll does not offer it; the question keeps waiting', async () => {
		const { poll } = await start();
		await ask(question());
		h.sandbox.webhooks.faults.loseNext(1);
		const one = say('1');
		// The run of the delivery's third attempt: n8n's own URL failed, so "1" ran as a message.
		claimedBefore([`message|${one.id}`]);
		await pollLater(poll);

		expect(resumes).toEqual([]);
	});

	it('control: a "1" whose run claimed it as an answer and ended the offer (refused, it ran): offered nowhere', async () => {
		const { poll } = await start();
		await ask(question());
		h.sandbox.webhooks.faults.loseNext(1);
		const one = say('1');
		claimedBefore([`message|${one.id}`, `answer|${one.id}`, `settled|${one.id}`]);
		await pollLater(poll);

		expect(resumes).toEqual([]);
		expect(passedOn(poll)).toEqual([]);
	});
});

describe('review s9b: a lost possible answer with nothing to offer is never caught up (R9b-2)', () => {
	it('R9b-2: a lost "my parcel never came" after a question of another n8n: the poll runs it once', async () => {
		const { poll } = await start();
		accountWrites(FOREIGN_QUESTION);
		h.sandbox.webhooks.faults.loseNext(1);
		say('my parcel never came');
		await pollLater(poll);

		expect(passedOn(poll)).toEqual(['my parcel never came']);
	});

	it('R9b-2: a lost "thanks, all good" after this n8n\'s question answered by its link: the poll runs it once', async () => {
		const { poll } = await start();
		const { key } = await ask(question());
		// Answered by its link: the execution no longer waits (n8n 2.x refuses with 409).
		asked.get(key)!.waiting = false;
		h.sandbox.webhooks.faults.loseNext(1);
		say('thanks, all good');
		await pollLater(poll);

		expect(passedOn(poll)).toEqual(['thanks, all good']);
	});

	it('R9b-2: a lost "1" and then, a burst later, a lost "ok great": the question takes the "1", and "ok great" runs once', async () => {
		const { poll } = await start();
		const { key } = await ask(question());
		h.sandbox.webhooks.faults.loseNext(2);
		say('1');
		h.sandbox.clock.advance(5000);
		say('ok great');
		await pollLater(poll);
		h.sandbox.clock.advance(4 * MINUTE);
		await poll.poll();

		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		expect(passedOn(poll)).toEqual(['ok great']);
	});

	it("control: the same message delivered runs in the trigger, after the other n8n's question", async () => {
		const { trigger } = await start();
		accountWrites(FOREIGN_QUESTION);
		say('my parcel never came');
		await settledAfter(h.sandbox, trigger, 1);

		expect(texts(trigger)).toEqual(['my parcel never came']);
	});

	it('control: a lost "my parcel never came" after an ordinary bot message: the poll runs it once', async () => {
		const { poll } = await start();
		accountWrites('Hello, how can we help?');
		h.sandbox.webhooks.faults.loseNext(1);
		say('my parcel never came');
		await pollLater(poll);

		expect(passedOn(poll)).toEqual(['my parcel never came']);
	});
});

describe("review s9b: a lost reply quoting a question beyond the poll's page (R9b-3)", () => {
	/** The question, `between` messages of the account after it, then the person's quoted "1", lost. */
	async function farQuote(between: number) {
		const { poll } = await start();
		const asked = await ask(question());
		for (let index = 0; index < between; index++) accountWrites(`update ${index}`);
		h.sandbox.webhooks.faults.loseNext(1);
		say('1', asked.id);
		await pollLater(poll);
		return { poll, key: asked.key };
	}

	it('R9b-3: a lost "1" quoting the question 60 messages back: the poll offers it, the question takes it, it runs as no message', async () => {
		const { poll, key } = await farQuote(60);

		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		expect(passedOn(poll)).toEqual([]);
	});

	it('control: a lost "1" quoting the question 5 messages back: the question takes it', async () => {
		const { poll, key } = await farQuote(5);

		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		expect(passedOn(poll)).toEqual([]);
	});
});

describe('review s9b: a reply written while the workflow was inactive (R9b-4)', () => {
	/** The poll's first activation, the "1" written while the workflow is inactive, then active again. */
	async function writtenWhileInactive() {
		const { poll } = await start();
		const asked = await ask(question());
		poll.deactivate();
		h.sandbox.webhooks.faults.loseNext(1);
		say('1');
		h.sandbox.clock.advance(5 * MINUTE);
		await poll.activate();
		await poll.poll();
		return { poll, key: asked.key };
	}

	// The docs now say so: within Max Age, a reply written while the workflow was inactive reaches
	// its question still waiting, as any message written then is caught up.
	it('R9b-4: the next activation\'s first poll offers it, the question takes it, its log says "still waited"', async () => {
		const { poll, key } = await writtenWhileInactive();

		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		expect(poll.warnings.join('\n')).toContain(
			'saved by the service but not run (answer to a Send and Wait question that still waited)',
		);
	});
});

describe('review s9b: the log of a caught-up answer (R9b-5)', () => {
	it('R9b-5: a lost "1" the question takes: the log does not say it runs', async () => {
		const { poll } = await start();
		const { key } = await ask(question());
		h.sandbox.webhooks.faults.loseNext(1);
		const one = say('1');
		await pollLater(poll);

		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		const line = poll.warnings.find((warning) => warning.includes(one.id)) ?? '';
		expect(line).not.toContain('they run now, once');
	});

	it('control: a lost ordinary message is logged as run now, once, and runs', async () => {
		const { poll } = await start();
		accountWrites('Hello, how can we help?');
		h.sandbox.webhooks.faults.loseNext(1);
		const parcel = say('my parcel never came');
		await pollLater(poll);

		expect(passedOn(poll)).toEqual(['my parcel never came']);
		const line = poll.warnings.find((warning) => warning.includes(parcel.id)) ?? '';
		expect(line).toContain('they run now, once');
	});
});
