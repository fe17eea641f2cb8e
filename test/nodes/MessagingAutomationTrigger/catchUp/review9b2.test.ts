import { describe, expect, it } from 'vitest';

import { settledAfter } from '../fixtures';
import { useAnswerCatchUp } from './answerCatchUp';

/*
 * Review s9b (continued; review9b.test.ts holds R9b-1 to R9b-5), of the Catch-Up poll's answer
 * bursts: n8n's engine, the real Send and Wait node behind a stand-in waiting server.
 *
 * R9b-6 (docs): answers-in-chat.md, Limits: "a poll ... makes one offer per question at most ...:
 * the oldest burst's within Max Age, so when that one's offer was ended, a newer answer to the same
 * question waits for a poll after the chat changes again, or the person's next message". A poll
 * after the chat changed picks the same oldest burst again (its offer ended, the question still
 * waits: its run passes nothing on), so the newer answer is never offered while the oldest stays
 * within Max Age, however often the chat changes. The person's next message does offer it.
 *
 * R9b-7: with Human Takeover on, a lost "1" to a question still waiting in a chat the account
 * paused ('/bot off'): the poll leaves it, logging "a person answers there, not the bot", which is
 * not so: it answers the workflow's Send and Wait question, which the trigger passes on in a paused
 * chat (docs/takeover.md: Send and Wait works in a paused chat), and nobody answers it by hand. The
 * Limits name the leaving ("answers included"); the log neither says a question waits nor what to
 * do (answer by the question's link). The question waits until the person writes again.
 *
 * R9b-8: n8n's own waiting-webhook URL unreachable from n8n (a public WEBHOOK_URL that does not
 * loop back: the trigger warns at activation, docs/answers-in-chat.md) fails the probe of every
 * chat read that holds a possible answer within Max Age, and chatCatchUp.ts throws for the whole
 * chat: its ordinary lost messages, which need no probe, never run either, each poll logs "could
 * not read conversation ... the next poll tries again" for it (the read worked), and the floor
 * stays (every such chat is read again each poll, for good). The trigger in that state runs the
 * replies as ordinary messages from the service's third attempt; the poll runs nothing there.
 */

const MINUTE = 60_000;
const {
	h,
	asked,
	resumes,
	setDown,
	question,
	ask,
	say,
	accountWrites,
	start,
	claimedBefore,
	pollLater,
} = useAnswerCatchUp();

/**
 * A "2" whose offer a run ended (its last try got no verdict: it ran as a message), the question
 * still waiting; then a "1", a burst later, whose event the service lost; a poll.
 */
async function endedThenLost() {
	const { poll } = await start();
	const { key } = await ask(question());
	h.sandbox.webhooks.faults.loseNext(2);
	const two = say('2');
	claimedBefore([`message|${two.id}`, `answer|${two.id}`, `settled|${two.id}`]);
	h.sandbox.clock.advance(5000);
	say('1');
	await pollLater(poll);
	return { poll, key };
}

/*
 * R9b-6, as fixed: each burst is asked about as its delivery's run would be (no longer one offer per
 * question per poll, the oldest), so the "1" is offered in the first poll. The node takes only the
 * chat's first answer by its own read, the "2" here, whose offer a run ended: the "1" is refused
 * and runs as the ordinary message it then is, as the trigger would run it delivered.
 */
describe('review s9b: a newer answer after one whose offer ended (R9b-6)', () => {
	it('R9b-6: the first poll offers the "1" too; the "2" decides, so the "1" runs as a message', async () => {
		const { poll } = await endedThenLost();

		expect(resumes).toEqual([]);
		expect(poll.executions.flat().map((item) => item.json.text)).toEqual(['1']);
	});
});

describe('review s9b: an answer in a chat Human Takeover paused (R9b-7)', () => {
	/** A chat the account paused, its question asked after the pause, and the person's "1". */
	async function pausedChat(lost: boolean) {
		const { trigger, poll } = await start({ humanTakeover: true });
		accountWrites('/bot off');
		const { key } = await ask(question());
		if (lost) h.sandbox.webhooks.faults.loseNext(1);
		say('1');
		return { trigger, poll, key };
	}

	it('R9b-7: a lost "1" in a paused chat: the poll passes it to the question, as the trigger does', async () => {
		const { poll, key } = await pausedChat(true);
		await pollLater(poll);

		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		expect(poll.executions.flat().map((item) => item.json.text)).toEqual([]);
	});

	it('control: the "1" delivered in the paused chat: the trigger passes it to the question', async () => {
		const { trigger, key } = await pausedChat(false);
		await settledAfter(h.sandbox, trigger, 1);
		await trigger.settled();

		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
	});

	it('R9b-7: in a paused chat, a lost "1" with "where is my parcel?" after it: the "1" answers, the rest goes to Paused Chats, and nothing runs the bot', async () => {
		const { trigger, poll } = await start({ humanTakeover: true });
		accountWrites('/bot off');
		const { key } = await ask(question());
		h.sandbox.webhooks.faults.loseNext(2);
		say('1');
		say('where is my parcel?');
		await pollLater(poll);
		await trigger.settled();

		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		expect(poll.executions.flat().map((item) => item.json.text)).toEqual([]);
		expect(poll.paused.flat().map((item) => item.json.text)).toEqual(['where is my parcel?']);
	});

	it('R9b-7: a "1" its question refuses in a paused chat (answered by its link after the poll asked) runs no bot and goes to Paused Chats', async () => {
		const { poll } = await start({ humanTakeover: true });
		accountWrites('/bot off');
		const { key } = await ask(question());
		// The poll's probe finds it waiting; by the offer, a person answered it by its link.
		const entry = asked.get(key) as { waiting: boolean };
		let looks = 0;
		Object.defineProperty(entry, 'waiting', { get: () => looks++ === 0, set: () => undefined });
		h.sandbox.webhooks.faults.loseNext(1);
		const one = say('1');
		await pollLater(poll);

		expect(resumes).toEqual([]);
		expect(poll.executions.flat().map((item) => item.json.text)).toEqual([]);
		expect(poll.paused.flat().map((item) => item.json.message_ids)).toEqual([[one.id]]);
	});
});

describe("review s9b: n8n's own URL unreachable from n8n (R9b-8)", () => {
	/*
	 * Fixed as a delivery's hand-back: a chat whose possible answer cannot be asked about waits whole
	 * (its other lost messages too, which would else run again at every poll that reads it), read
	 * again at each poll, without the false "could not read conversation"; once n8n answers, the "1"
	 * is offered and "where is my parcel?" runs once.
	 */
	it('R9b-8: while n8n answers 502 nothing of the chat runs; once it answers, the question takes the "1" and "where is my parcel?" runs once', async () => {
		const { poll } = await start();
		const { key } = await ask(question());
		setDown(true);
		h.sandbox.webhooks.faults.loseNext(2);
		say('1');
		h.sandbox.clock.advance(5000);
		say('where is my parcel?');
		await pollLater(poll);

		expect(poll.executions).toEqual([]);
		expect(poll.warnings.join('\n')).not.toContain('could not read conversation');
		setDown(false);
		h.sandbox.clock.advance(MINUTE);
		await poll.poll();
		await poll.poll();

		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		expect(poll.executions.flat().map((item) => item.json.text)).toEqual(['where is my parcel?']);
	});
});

describe('review s9b: R9b-3 beside the trigger', () => {
	it('control (R9b-3): a "1" quoting the question 60 messages back, delivered: the trigger reads back to it, and the question takes it', async () => {
		const { trigger } = await start();
		const asked = await ask(question());
		for (let index = 0; index < 60; index++) accountWrites(`update ${index}`);
		say('1', asked.id);
		await settledAfter(h.sandbox, trigger, 1);
		await trigger.settled();

		expect(resumes).toEqual([
			{ key: asked.key, data: expect.objectContaining({ approved: true }) },
		]);
	});
});
