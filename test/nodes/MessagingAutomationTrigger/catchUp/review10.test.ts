import { describe, expect, it } from 'vitest';

import { putBackTakeBacks } from '../../../support/processedData';
import { useAnswerCatchUp } from './answerCatchUp';

/*
 * Review s10: the session's changes (b0c2d1c..59fb038). Each finding was an `it.fails` beside a
 * passing control, in n8n's engine with the real Send and Wait node behind a stand-in waiting
 * server (answers/realQuestions.ts), the sandbox clock moved by hand. Fixed since, and passing:
 * R10-1 and R10-2 (a burst given up on stays so, logged once: probePatience.ts), R10-4 (a paused
 * chat's refused reply's claim taken back: answerPass.ts unlessPaused), R10-6 (a caught-up burst's
 * previous message's claim, made only to ask, taken back: vouchedClaims.ts), R10-7 (two failed
 * polls over 10 minutes). R10-3 is in testRunError.test.ts. Open: R10-5 (`it.fails`).
 */

const MINUTE = 60_000;
const {
	h,
	asked,
	resumes,
	question,
	ask,
	say,
	setDown,
	start,
	accountWrites,
	pollLater,
	passedOn,
	toPeople,
	claimedBefore,
	texts,
} = useAnswerCatchUp();

/*
 * R10-1: the give-up (probePatience.ts) forgets the burst it gave up on (`asked`), though the chat's
 * items run only when no burst of the chat is undecided. Two lost possible answers written minutes
 * apart fail their first ask at different polls, so each reaches its give-up while the other is
 * still counting: that poll returns nothing (another burst undecided), and the next poll counts the
 * first one again from 1. The two take turns for good: the "1" passes Max Age and never runs (lost),
 * and the "2" runs only once the "1" has left the window, 58 minutes on; any other lost message of
 * the chat waits with them. Seen on 59fb038. Smallest fix: the give-up branch of chatCatchUp.ts
 * `decided` keeps the burst's entry (no `asked`), so a burst given up on stays given up until an
 * ask succeeds or forgetFailingBefore drops it.
 */
describe("review s10: n8n's own URL never answering, two possible answers in one chat (R10-1)", () => {
	async function twoLost(gapMinutes: number) {
		const { poll } = await start();
		await ask(question());
		setDown(true);
		h.sandbox.webhooks.faults.loseNext(2);
		say('1');
		// Polls every minute (the default Poll Times) for 70 minutes; Max Age is 1 hour. The "2" is
		// written `gapMinutes` after the "1".
		for (let at = 0; at < 70; at++) {
			if (at === gapMinutes) {
				h.sandbox.clock.advance(1000);
				say('2');
			}
			h.sandbox.clock.advance(MINUTE);
			await poll.poll();
		}
		return poll;
	}

	it('control: two lost possible answers first asked about at one poll (written a second apart): both run as messages within Max Age', async () => {
		const poll = await twoLost(0);
		expect(poll.executions.flat().map((item) => item.json.text)).toEqual(['1', '2']);
		expect(resumes).toEqual([]);
	});

	it('R10-1: two lost possible answers 5 minutes apart (the "2" after the first failed ask about the "1"): both run as messages within Max Age', async () => {
		const poll = await twoLost(5);
		expect(
			poll.executions
				.flat()
				.map((item) => item.json.text)
				.sort(),
		).toEqual(['1', '2']);
	});
});

/*
 * R10-2: the give-up forgets the burst once it ran as a message, but the poll's answer bursts hold
 * a possible answer "answered by the account or not" (shared/conversation/catchUp.ts answerBursts),
 * so the next read of the chat (the person writes again, lost too, n8n's URL still failing) asks
 * about the "1" that ran again, counts it from 1, holds the chat's new lost message for 3 more polls
 * over 10 more minutes, and logs once more that the "1" runs as an ordinary message "now", though
 * it ran 20 minutes before and runs nothing now. Seen on 59fb038: the give-up logged twice, the
 * parcel run at minute 33, not 23. Smallest fix (with R10-1's): keep the given-up entry (no `asked`
 * in the give-up branch), so a later failed ask about it gives up at once, and log the give-up only
 * the first time (a flag on the entry); both tests pass with it.
 */
describe('review s10: a possible answer given up on and run, then the chat read again (R10-2)', () => {
	async function givenUpThenAgain(afterMinutes: number) {
		const { poll } = await start();
		await ask(question());
		setDown(true);
		h.sandbox.webhooks.faults.loseNext(2);
		const one = say('1');
		const minutes: Record<string, number> = {};
		for (let at = 1; at <= 40; at++) {
			if (at === afterMinutes) say('where is my parcel?');
			h.sandbox.clock.advance(MINUTE);
			const before = poll.executions.length;
			await poll.poll();
			for (const item of poll.executions.slice(before).flat()) minutes[String(item.json.text)] = at;
		}
		const gaveUp = poll.warnings.filter(
			(line) => line.includes('could not ask whether') && line.includes(one.id),
		);
		return { minutes, gaveUp };
	}

	it('control: "where is my parcel?" written before the give-up: both run at the give-up, logged once', async () => {
		const { minutes, gaveUp } = await givenUpThenAgain(5);
		expect(Object.keys(minutes).sort()).toEqual(['1', 'where is my parcel?']);
		expect(gaveUp).toHaveLength(1);
	});

	it('R10-2: "where is my parcel?" written after the "1" ran: the give-up of the "1" is logged once, and the new message runs 3 minutes after it closed', async () => {
		const { minutes, gaveUp } = await givenUpThenAgain(20);
		expect({ gaveUp: gaveUp.length, parcel: minutes['where is my parcel?'] }).toEqual({
			gaveUp: 1,
			parcel: 23,
		});
	});
});

/*
 * R10-4 (R9b-7 as fixed then): in a chat Human Takeover paused, the poll's item held only the replies
 * to a waiting question, and what the question refused (answered by its link between the poll's
 * probe and its offer) was claimed and dropped: in no run and no answer, for good. The take-back
 * that fixed it could be put back by another process's write (R10b-1). Since R4-4 the Catch-Up
 * node has the trigger's Paused Chats output: a paused chat's bursts go there whole, replies
 * included, as the trigger sends them (takeoverOutput.ts), so the refused "1" reaches a person once
 * and nothing is dropped or taken back. Once the bot is resumed, neither runs the bot.
 */
describe('review s10: a refused reply in a paused chat, then the bot resumed (R10-4)', () => {
	async function refusedThenResumed() {
		const { poll } = await start({ humanTakeover: true });
		accountWrites('/bot off');
		const { key } = await ask(question());
		// The poll's probe finds it waiting; by the offer, a person answered it by its link.
		const entry = asked.get(key) as { waiting: boolean };
		let looks = 0;
		Object.defineProperty(entry, 'waiting', { get: () => looks++ === 0, set: () => undefined });
		h.sandbox.webhooks.faults.loseNext(2);
		say('1');
		say('where is my parcel?');
		await pollLater(poll);
		const whilePaused = { bot: passedOn(poll), people: toPeople(poll) };
		h.sandbox.clock.advance(MINUTE);
		h.sandbox.webhooks.faults.loseNext(1);
		say('hello?');
		h.sandbox.clock.advance(MINUTE);
		accountWrites('/bot on');
		await pollLater(poll);
		return { whilePaused, bot: passedOn(poll), people: toPeople(poll) };
	}

	it('R10-4: while paused, the refused "1" and "where is my parcel?" go to Paused Chats once; once resumed, neither runs the bot', async () => {
		const { whilePaused, bot, people } = await refusedThenResumed();
		expect(whilePaused).toEqual({ bot: [], people: ['1', 'where is my parcel?'] });
		expect({ bot, people }).toEqual({ bot: [], people: ['1', 'where is my parcel?'] });
	});
});

/*
 * R10-5 (R9c-1, the same-run part as fixed): `known` tells the run whose stray `answer|<1>` was put
 * back that no earlier run claimed it. But the key put back stays, and the Catch-Up poll itself
 * reads the chat again once it changes (here the account writes; most often the bot's reply to the
 * "1" that ran): the question still waits, so the poll offers the "1" again, and that run's own
 * first claim finds `answer|<1>` already claimed, by the put-back: `known` says an earlier run
 * claimed it as an answer, the run takes the "unended offer" over, and the question takes the "1"
 * that ran as a message. The Limits name only "the person's next message's run" as open.
 * Seen on 59fb038: "claimed as answers by an earlier run that never ended their offer ... offered
 * again", then "answered". No small fix: the Limits should name the poll's next read too (it needs
 * no new message from the person); closing it needs the ask no put-back can fake that R9c-1 names.
 */
describe('review s10: the stray answer claim put back, then the poll reads the chat again (R10-5)', () => {
	async function ranAsMessageThenChanged(putBack: boolean) {
		const { poll } = await start();
		await ask(question());
		if (putBack) putBackTakeBacks();
		h.sandbox.webhooks.faults.loseNext(1);
		const one = say('1');
		// The run of the delivery's third attempt: n8n's own URL failed, so "1" ran as a message.
		claimedBefore([`message|${one.id}`]);
		await pollLater(poll);
		accountWrites('Noted, thanks.');
		await pollLater(poll);
		return poll;
	}

	it('control: the same without the write putting the take-back back: the question keeps waiting', async () => {
		await ranAsMessageThenChanged(false);
		expect(resumes).toEqual([]);
	});

	it.fails(
		'R10-5: put back, the poll\'s next read of the chat leaves the "1" that ran alone',
		async () => {
			await ranAsMessageThenChanged(true);
			expect(resumes).toEqual([]);
		},
	);
});

/*
 * R10-6 (R9b-7 as fixed then): the paused item held only the reply, and its claim of the message
 * before it (`caught_up.previous_message_id`, vouchedClaims.ts) marked the left "where is my
 * parcel?" as run, so it never ran once the bot resumed. Since R4-4 a paused chat's bursts go to
 * Paused Chats whole, whichever comes first: the question takes the "1", a person gets "where is my
 * parcel?" once, and the resumed bot runs neither.
 */
describe('review s10: a paused chat, the reply after another message of its burst (R10-6)', () => {
	async function pausedThenResumed(order: 'reply first' | 'reply last') {
		const { poll } = await start({ humanTakeover: true });
		accountWrites('/bot off');
		const { key } = await ask(question());
		h.sandbox.webhooks.faults.loseNext(2);
		if (order === 'reply first') {
			say('1');
			say('where is my parcel?');
		} else {
			say('where is my parcel?');
			say('1');
		}
		await pollLater(poll);
		const whilePaused = passedOn(poll);
		h.sandbox.clock.advance(MINUTE);
		h.sandbox.webhooks.faults.loseNext(1);
		say('hello?');
		h.sandbox.clock.advance(MINUTE);
		accountWrites('/bot on');
		await pollLater(poll);
		return { key, whilePaused, bot: passedOn(poll), people: toPeople(poll) };
	}

	for (const order of ['reply first', 'reply last'] as const)
		it(`R10-6 (${order}): the question takes the "1", "where is my parcel?" goes to Paused Chats once, the resumed bot runs neither`, async () => {
			const { key, whilePaused, bot, people } = await pausedThenResumed(order);
			expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
			expect(whilePaused).toEqual([]);
			expect({ bot, people }).toEqual({ bot: [], people: ['where is my parcel?'] });
		});
});

/* Checked and holding: a "1" given up on and run, then n8n's own URL answering again. */
describe('review s10: given up, then n8n answers again (holds)', () => {
	it('the "1" that ran as a message is not offered when a later read finds its question still waiting', async () => {
		const { trigger, poll } = await start();
		await ask(question());
		setDown(true);
		h.sandbox.webhooks.faults.loseNext(1);
		say('1');
		for (let at = 0; at < 15; at++) {
			h.sandbox.clock.advance(MINUTE);
			await poll.poll();
		}
		expect(passedOn(poll)).toEqual(['1']);
		setDown(false);
		accountWrites('Noted.');
		await pollLater(poll);
		say('thanks');
		await pollLater(poll);
		expect(resumes).toEqual([]);
		await trigger.settled();
		expect([...texts(trigger), ...passedOn(poll)]).toEqual(['1', 'thanks']);
	});
});

/*
 * R10-7 (docs): answers-in-chat.md, Limits: "With Poll Times longer than 20 minutes the three polls
 * may pass a 1-hour Max Age first". The first failed ask comes at the first poll after the chat has
 * been quiet 3 minutes, up to one interval later, and the give-up two intervals after it: with Poll
 * Times every 20 minutes that is up to 3 + 3 × 20 = 63 minutes after the "1", past Max Age. Seen on
 * 59fb038: the give-up is logged ("they run as ordinary messages now"), and nothing runs. Smallest
 * fix: the Limits say "19 minutes or longer"; and the give-up logs only what it runs.
 */
describe('review s10: the give-up with Poll Times every 20 minutes (R10-7)', () => {
	async function everyMinutes(interval: number) {
		const { poll } = await start();
		await ask(question());
		setDown(true);
		h.sandbox.webhooks.faults.loseNext(1);
		say('1');
		// The first poll comes just before the chat has been quiet 3 minutes.
		h.sandbox.clock.advance(2.9 * MINUTE);
		for (let at = 0; at < 5; at++) {
			await poll.poll();
			h.sandbox.clock.advance(interval * MINUTE);
		}
		return passedOn(poll);
	}

	it('control: every 15 minutes, the "1" runs as a message within Max Age', async () => {
		expect(await everyMinutes(15)).toEqual(['1']);
	});

	it('R10-7: every 20 minutes (not "longer than 20"), the "1" runs as a message within Max Age', async () => {
		expect(await everyMinutes(20)).toEqual(['1']);
	});
});
