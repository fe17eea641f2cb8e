import { describe, expect, it } from 'vitest';

import { useAnswerCatchUp } from './answerCatchUp';

/*
 * Review s9c (continued, review9c.test.ts): a second look at the fixes of review s9b (e28db3b). Each finding is an `it.fails`
 * beside a passing control, in n8n's engine with the real Send and Wait node behind a stand-in
 * waiting server (answers/realQuestions.ts), the sandbox clock moved by hand.
 */

const MINUTE = 60_000;
const { h, resumes, question, ask, say, setDown, start, passedOn } = useAnswerCatchUp();

/*
 * R9c-2: R9b-8's "the chat waits whole and the next poll reads it again" has no end but Max Age.
 * n8n that cannot reach its own public URL (a container behind NAT without hairpin, a proxy that
 * refuses n8n's own address) fails every probe for good. The delivered trigger gives up after its
 * third attempt and runs the reply as a message (docs/answers-in-chat.md), and a lost ordinary
 * message of the same chat, a burst of its own, runs delivered whatever the "1" does. The poll
 * reads the chat again at every poll until the bursts pass Max Age, keeps the floor from moving,
 * and then leaves the lost "where is my parcel?" without a run and without a log that says so.
 */
describe("review s9c: n8n's own URL never answering (R9c-2)", () => {
	async function lostWhileDown(downFor: number) {
		const { poll } = await start();
		await ask(question());
		setDown(true);
		h.sandbox.webhooks.faults.loseNext(2);
		say('1');
		h.sandbox.clock.advance(5000);
		say('where is my parcel?');
		h.sandbox.clock.advance(4 * MINUTE);
		// Polls every 5 minutes for 2 hours (Max Age is 1 hour by default), or until n8n answers.
		for (let at = 0; at < 120; at += 5) {
			if (at >= downFor + 5) break;
			if (at >= downFor) setDown(false);
			await poll.poll();
			await poll.poll();
			h.sandbox.clock.advance(5 * MINUTE);
		}
		return poll;
	}

	it('control: probes failing for the first poll only: "where is my parcel?" runs once', async () => {
		const poll = await lostWhileDown(5);
		expect(poll.executions.flat().map((item) => item.json.text)).toEqual(['where is my parcel?']);
	});

	it('R9c-2: probes failing for good: the lost "where is my parcel?" runs once within Max Age, as delivered it would', async () => {
		const poll = await lostWhileDown(Infinity);
		// The "1" too, as the delivered trigger runs it after the service's third attempt.
		expect(poll.executions.flat().map((item) => item.json.text)).toEqual([
			'1',
			'where is my parcel?',
		]);
		expect(resumes).toEqual([]);
	});

	it('control: probes failing for two polls only, 15 minutes apart: the "1" waits and is offered then', async () => {
		const poll = await lostWhileDown(10);
		expect(poll.executions.flat().map((item) => item.json.text)).toEqual(['where is my parcel?']);
		expect(resumes).toHaveLength(1);
	});
});

/*
 * Two possible answers in one chat whose asks began failing at different polls: the chat waits
 * whole while either waits, so a burst given up on stays given up until the other is too; else each
 * would start its count again in turn and the chat would never settle.
 */
describe('R9c-2: two replies in one chat, their asks failing from different polls', () => {
	it('both run as messages once the later one is given up on too, within Max Age', async () => {
		const { poll } = await start();
		await ask(question());
		setDown(true);
		h.sandbox.webhooks.faults.loseNext(2);
		say('1');
		h.sandbox.clock.advance(4 * MINUTE);
		await poll.poll();
		h.sandbox.clock.advance(3 * MINUTE);
		say('2');
		for (let minute = 0; minute < 40; minute++) {
			h.sandbox.clock.advance(MINUTE);
			await poll.poll();
		}
		expect(resumes).toEqual([]);
		expect(poll.executions.flat().map((item) => item.json.text)).toEqual(['1', '2']);
	});
});

/*
 * R9d-3 (review s9d, of a first R9c-2 fix that gave up 10 minutes after the burst closed): a poll
 * whose first look at the chat comes 11 minutes after a lost "1" asks again before it gives up.
 */
describe('R9c-2: the poll gives up only after failed asks at several polls, not at a late first look', () => {
	async function lateFirstLook(failOnce: boolean) {
		const { poll } = await start();
		await ask(question());
		h.sandbox.webhooks.faults.loseNext(1);
		const one = say('1');
		h.sandbox.clock.advance(11 * MINUTE);
		if (failOnce) setDown(true);
		await poll.poll();
		await poll.poll();
		setDown(false);
		h.sandbox.clock.advance(5 * MINUTE);
		await poll.poll();
		await poll.poll();
		return { one, poll };
	}

	for (const failOnce of [true, false])
		it(`${failOnce ? 'one ask failing' : 'control: no ask failing'} at a first look 11 minutes after the "1": it is offered at the next poll, not run as a message`, async () => {
			const { one, poll } = await lateFirstLook(failOnce);
			expect({
				resumed: resumes.map((resume) => resume.data.answerMessageId),
				ran: passedOn(poll),
			}).toEqual({ resumed: [one.id], ran: [] });
		});
});
