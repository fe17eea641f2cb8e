import { describe, expect, it } from 'vitest';

import { entryOf, processedRecords } from '../../../support/processedData';
import type { N8nPollHost } from '../../../support/n8nPoll';
import { settledAfter } from '../fixtures';
import { useRealQuestions } from '../answers/realQuestions';
import { catchUpBeside, quickGrouping } from './catchUpFixtures';

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
const { h, resumes, activeTrigger, question, ask, say, accountWrites } = useRealQuestions();

async function start(extra = {}) {
	const trigger = await activeTrigger({ ...quickGrouping, quietWindowSeconds: 0.4, ...extra });
	const poll = await catchUpBeside(
		h.sandbox,
		trigger,
		h.sandbox.keys.owner,
		`${new URL(String(trigger.waitingBaseUrl)).origin}/webhook-waiting`,
	);
	await poll.activate();
	return { trigger, poll };
}

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

describe('review s9b: one offer per question per poll, the oldest (R9b-6)', () => {
	it.fails(
		'R9b-6: as the Limits say, once the chat changed again a poll offers the newer "1", and the question takes it',
		async () => {
			const { poll, key } = await endedThenLost();
			accountWrites('Our team is looking into it.');
			await pollLater(poll);

			expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		},
	);

	it('control: the first poll offers the oldest burst ("2", its offer ended) and not the "1"', async () => {
		const { poll } = await endedThenLost();

		expect(resumes).toEqual([]);
		expect(poll.executions).toHaveLength(1);
	});

	it('control: what R9b-6 does today: after the chat changed, the poll starts another run of the "2" that passes nothing on, and the "1" still waits', async () => {
		const { poll } = await endedThenLost();
		accountWrites('Our team is looking into it.');
		await pollLater(poll);

		expect(resumes).toEqual([]);
		expect(poll.executions).toHaveLength(2);
		expect(poll.executions.flat()).toEqual([]);
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

	it.fails(
		'R9b-7: a lost "1" in a paused chat: the poll passes it to the question, as the trigger does',
		async () => {
			const { poll, key } = await pausedChat(true);
			await pollLater(poll);

			expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		},
	);

	it('control: the "1" delivered in the paused chat: the trigger passes it to the question', async () => {
		const { trigger, key } = await pausedChat(false);
		await settledAfter(h.sandbox, trigger, 1);
		await trigger.settled();

		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
	});

	it('control: what R9b-7 does today: left, logged as a chat a person answers', async () => {
		const { poll } = await pausedChat(true);
		await pollLater(poll);

		expect(resumes).toEqual([]);
		expect(poll.warnings.join('\n')).toContain('a person answers there, not the bot');
	});
});

describe("review s9b: n8n's own URL unreachable from n8n (R9b-8)", () => {
	/** The question's links and the poll's base at a port nothing listens on; a "1", then a lost "where is my parcel?". */
	async function unreachableOwnUrl() {
		const dead = 'http://127.0.0.1:9/webhook-waiting';
		const trigger = await activeTrigger({ ...quickGrouping, quietWindowSeconds: 0.4 });
		trigger.waitingBaseUrl = dead;
		h.engine.webhookWaitingBaseUrl = dead;
		const poll = await catchUpBeside(h.sandbox, trigger, h.sandbox.keys.owner, dead);
		await poll.activate();
		await ask(question());
		h.sandbox.webhooks.faults.loseNext(1);
		say('1');
		h.sandbox.clock.advance(5000);
		h.sandbox.webhooks.faults.loseNext(1);
		say('where is my parcel?');
		await pollLater(poll);
		return poll;
	}

	it.fails(
		'R9b-8: the lost "where is my parcel?", which no question could take, runs once',
		async () => {
			const poll = await unreachableOwnUrl();

			expect(poll.executions.flat().map((item) => item.json.text)).toEqual(['where is my parcel?']);
		},
	);

	it('control: what R9b-8 does today: nothing runs, and each poll says it could not read the conversation', async () => {
		const poll = await unreachableOwnUrl();
		h.sandbox.clock.advance(MINUTE);
		await poll.poll();

		expect(poll.executions).toEqual([]);
		const lines = poll.warnings.filter((line) => line.includes('could not read conversation'));
		expect(lines.length).toBeGreaterThanOrEqual(3);
		expect(lines[0]).toContain('a Send and Wait question could not be asked whether it waits');
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
