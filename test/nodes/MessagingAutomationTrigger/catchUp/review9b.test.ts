import { describe, expect, it } from 'vitest';

import { entryOf, processedRecords } from '../../../support/processedData';
import type { N8nPollHost } from '../../../support/n8nPoll';
import { settledAfter } from '../fixtures';
import { useRealQuestions } from '../answers/realQuestions';
import { catchUpBeside, quickGrouping } from './catchUpFixtures';

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
 */

const MINUTE = 60_000;
const { h, resumes, activeTrigger, question, ask, say, accountWrites, asked, texts } =
	useRealQuestions();

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

const passedOn = (poll: N8nPollHost) =>
	poll.executions.flatMap((items) => items.map((item) => item.json.text as string));

/** A question of another n8n, as the account sent it: signed, taking answers in the chat. */
const FOREIGN_QUESTION =
	'Approve the refund? Reply 1 or 2. https://staging-n8n.example.com/webhook-waiting/991?chat=1&approved=true&signature=abc';

describe('review s9b: the Catch-Up poll offers a "1" that ran as a message (R9b-1)', () => {
	it.fails(
		'R9b-1: a "1" whose run ran it as an ordinary message (claimed `message|` only, the delivery gave up on a probe n8n did not answer): the poll does not offer it; the question keeps waiting',
		async () => {
			const { poll } = await start();
			await ask(question());
			h.sandbox.webhooks.faults.loseNext(1);
			const one = say('1');
			// The run of the delivery's third attempt: n8n's own URL failed, so "1" ran as a message.
			claimedBefore([`message|${one.id}`]);
			await pollLater(poll);

			expect(resumes).toEqual([]);
		},
	);

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

	it('control: what R9b-1 does today: the question takes the "1" that ran as a message', async () => {
		const { poll } = await start();
		const { key } = await ask(question());
		h.sandbox.webhooks.faults.loseNext(1);
		const one = say('1');
		claimedBefore([`message|${one.id}`]);
		await pollLater(poll);

		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		expect(poll.warnings.join('\n')).toContain('never ended their offer');
	});
});

describe('review s9b: a lost possible answer with nothing to offer is never caught up (R9b-2)', () => {
	it.fails(
		'R9b-2: a lost "my parcel never came" after a question of another n8n: the poll runs it once',
		async () => {
			const { poll } = await start();
			accountWrites(FOREIGN_QUESTION);
			h.sandbox.webhooks.faults.loseNext(1);
			say('my parcel never came');
			await pollLater(poll);

			expect(passedOn(poll)).toEqual(['my parcel never came']);
		},
	);

	it.fails(
		'R9b-2: a lost "thanks, all good" after this n8n\'s question answered by its link: the poll runs it once',
		async () => {
			const { poll } = await start();
			const { key } = await ask(question());
			// Answered by its link: the execution no longer waits (n8n 2.x refuses with 409).
			asked.get(key)!.waiting = false;
			h.sandbox.webhooks.faults.loseNext(1);
			say('thanks, all good');
			await pollLater(poll);

			expect(passedOn(poll)).toEqual(['thanks, all good']);
		},
	);

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

	it('control: what R9b-2 does today: the poll reads the chat and starts no run', async () => {
		const { poll } = await start();
		accountWrites(FOREIGN_QUESTION);
		h.sandbox.webhooks.faults.loseNext(1);
		say('my parcel never came');
		await pollLater(poll);

		expect(poll.executions).toEqual([]);
	});
});
