import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { settledAfter } from '../fixtures';
import { useAnswerCatchUp } from './answerCatchUp';
import { catchUpBeside, quickGrouping } from './catchUpFixtures';

/*
 * The Catch-Up poll's answer bursts (catchUp/chatCatchUp.ts): an answer to a question that still
 * waits, which no run will offer or end, reaches its question from the poll, through the run's one
 * rule (the real Send and Wait node decides behind the link, realQuestions.ts). S8-1: n8n stopped
 * while a run offered the "1", after answering its delivery, so the service sends it no more; and
 * the "1" whose event the service never sent. The sandbox clock stands still and is moved by hand.
 */

const MINUTE = 60_000;
const {
	h,
	resumes,
	setLine,
	activeTrigger,
	question,
	ask,
	say,
	texts,
	start,
	claimedBefore,
	pollLater,
	passedOn,
} = useAnswerCatchUp();

describe('the Catch-Up poll and answers no run ends (S8-1)', () => {
	it('a "1" claimed by a run n8n stopped during its offer, its delivery answered: the poll offers it again, the question takes it, nothing runs as a message', async () => {
		const { trigger, poll } = await start();
		const { key } = await ask(question());
		h.sandbox.webhooks.faults.loseNext(1);
		const one = say('1');
		claimedBefore([`message|${one.id}`, `answer|${one.id}`]);
		await pollLater(poll);

		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		expect(passedOn(poll)).toEqual([]);
		expect(texts(trigger)).toEqual([]);
		expect(poll.warnings.join('\n')).toContain('never ended their offer');
	});

	it('a "1" whose event the service never sent: the poll offers it, the question takes it once', async () => {
		const { poll } = await start();
		const { key } = await ask(question());
		h.sandbox.webhooks.faults.loseNext(1);
		say('1');
		await pollLater(poll);
		h.sandbox.clock.advance(4 * MINUTE);
		await poll.poll();

		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		expect(passedOn(poll)).toEqual([]);
	});

	it('the "1" and "also, where is my parcel?" after it, the run stopped before claiming the other: the question takes the "1", the other runs once, caught up', async () => {
		const { poll } = await start({ quietWindowSeconds: 3 });
		const { key } = await ask(question());
		h.sandbox.webhooks.faults.loseNext(2);
		const one = say('1');
		say('also, where is my parcel?');
		claimedBefore([`message|${one.id}`, `answer|${one.id}`]);
		await pollLater(poll);

		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		expect(passedOn(poll)).toEqual(['also, where is my parcel?']);
		expect(poll.executions[0][0].json).toMatchObject({
			caught_up: { reason: 'answer to a Send and Wait question that still waited' },
			burst: { answered_message_ids: [one.id] },
		});
	});

	it('two lost replies to one question, "2" then "1", bursts apart, on n8n 1.x: each offered, the question declines once, with the first; the "1" runs as a message, as the trigger runs it', async () => {
		setLine('1.x');
		const { poll } = await start();
		const { key } = await ask(question());
		h.sandbox.webhooks.faults.loseNext(2);
		say('2');
		say('1');
		await pollLater(poll);

		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: false }) }]);
		expect(passedOn(poll)).toEqual(['1']);
	});

	it('control: a "1" whose offer a run ended (the question refused it, it ran): offered nowhere, nothing runs again', async () => {
		const { poll } = await start();
		await ask(question());
		h.sandbox.webhooks.faults.loseNext(1);
		const one = say('1');
		claimedBefore([`message|${one.id}`, `answer|${one.id}`, `settled|${one.id}`]);
		await pollLater(poll);

		expect(resumes).toEqual([]);
		expect(passedOn(poll)).toEqual([]);
	});

	it('control: a "1" the trigger passed on as usual: the poll reads the chat once; its one run passes nothing on', async () => {
		const { trigger, poll } = await start();
		const { key } = await ask(question());
		say('1');
		await settledAfter(h.sandbox, trigger, 1);
		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		await pollLater(poll);

		// The "1" answers nothing waiting now, so the poll takes it for a message; its claim says it ran.
		expect(poll.executions.flat()).toEqual([]);
		expect(resumes).toHaveLength(1);
	});

	it('control: with Pass Answers off the poll runs the lost "1" as a message, as before', async () => {
		const trigger = await activeTrigger({ ...quickGrouping, answersToSendAndWait: false });
		const poll = await catchUpBeside(h.sandbox, trigger);
		await poll.activate();
		await ask(question());
		h.sandbox.webhooks.faults.loseNext(1);
		say('1');
		await pollLater(poll);

		expect(resumes).toEqual([]);
		expect(passedOn(poll)).toEqual(['1']);
		expect((poll.executions[0][0].json.caught_up as IDataObject).reason).toBe(
			'event never delivered',
		);
	});
});
