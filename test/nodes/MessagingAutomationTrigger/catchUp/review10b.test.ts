import { describe, expect, it } from 'vitest';

import { putBackTakeBacks } from '../../../support/processedData';
import { useAnswerCatchUp } from './answerCatchUp';

/*
 * Review s10b: a second look at the fixes after review s10 (27f1854..7fe1587), in n8n's engine
 * with the real Send and Wait node behind a stand-in waiting server (answers/realQuestions.ts),
 * the sandbox clock moved by hand. Each finding is an `it.fails` beside a passing control.
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
} = useAnswerCatchUp();

/** The person writes again while paused, and the account resumes the bot: two polls after. */
async function resumeLater(poll: Awaited<ReturnType<typeof start>>['poll']) {
	h.sandbox.clock.advance(MINUTE);
	h.sandbox.webhooks.faults.loseNext(1);
	say('hello?');
	h.sandbox.clock.advance(MINUTE);
	accountWrites('/bot on');
	await pollLater(poll);
}

/*
 * R10b-1 (R10-6 and R10-4 as fixed then): both fixes took a claim back (vouchedClaims.ts
 * withoutStrayClaims: `message|<previous>`; answerPass.ts unlessPaused: the dropped reply's
 * `message|<id>`), and a take-back can be put back by another process's write of the whole record
 * (support/processedData.ts putBackTakeBacks, the worst such writes can do; R9c-1). Put back, the
 * paused chat's left "where is my parcel?" (R10-6) or refused "1" (R10-4) counted as run and never
 * ran. Since R4-4 the poll leaves nothing in a paused chat: its bursts go to Paused Chats whole, as
 * the trigger sends them, and unlessPaused is gone. Whatever a write puts back, a person gets each
 * message once and the resumed bot runs neither.
 */
describe('review s10b: a take-back of R10-6 or R10-4 put back by another process (R10b-1)', () => {
	async function pausedThenResumed(putBack: boolean) {
		const { poll } = await start({ humanTakeover: true });
		accountWrites('/bot off');
		await ask(question());
		if (putBack) putBackTakeBacks();
		h.sandbox.webhooks.faults.loseNext(2);
		say('where is my parcel?');
		say('1');
		await pollLater(poll);
		await resumeLater(poll);
		return { bot: passedOn(poll), people: toPeople(poll) };
	}

	async function refusedThenResumed(putBack: boolean) {
		const { poll } = await start({ humanTakeover: true });
		accountWrites('/bot off');
		const { key } = await ask(question());
		if (putBack) putBackTakeBacks();
		// The poll's probe finds it waiting; by the offer, a person answered it by its link.
		const entry = asked.get(key) as { waiting: boolean };
		let looks = 0;
		Object.defineProperty(entry, 'waiting', { get: () => looks++ === 0, set: () => undefined });
		h.sandbox.webhooks.faults.loseNext(2);
		say('1');
		say('where is my parcel?');
		await pollLater(poll);
		await resumeLater(poll);
		return { bot: passedOn(poll), people: toPeople(poll) };
	}

	for (const putBack of [false, true]) {
		const how = putBack ? 'take-backs put back' : 'nothing put back';
		it(`R10b-1 (R10-6, ${how}): "where is my parcel?" goes to Paused Chats once, the bot runs nothing`, async () => {
			expect(await pausedThenResumed(putBack)).toEqual({
				bot: [],
				people: ['where is my parcel?'],
			});
		});

		it(`R10b-1 (R10-4, ${how}): the refused "1" goes to Paused Chats once, the bot runs nothing`, async () => {
			expect(await refusedThenResumed(putBack)).toEqual({
				bot: [],
				people: ['1', 'where is my parcel?'],
			});
		});
	}
});

/*
 * Checked and holding: a paused chat's reply whose offer fails (n8n's own URL answering 502 after the probe) is not dropped: the
 * offer stays open, and once n8n answers again a later poll offers it and the question takes it.
 */
describe("review s10b: a paused chat, the reply's offer failing (holds)", () => {
	async function offerFails(fails: boolean) {
		const { poll } = await start({ humanTakeover: true });
		accountWrites('/bot off');
		const { key } = await ask(question());
		if (fails) {
			const get = asked.get.bind(asked);
			let looks = 0;
			asked.get = (k: string) => {
				if (looks++ === 0) setDown(true);
				return get(k);
			};
		}
		h.sandbox.webhooks.faults.loseNext(1);
		say('1');
		await pollLater(poll);
		const whilePaused = passedOn(poll);
		setDown(false);
		await resumeLater(poll);
		await pollLater(poll);
		return { key, whilePaused, all: passedOn(poll) };
	}

	it('control: the offer goes through while paused: the question takes the "1"', async () => {
		const { key, whilePaused } = await offerFails(false);
		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		expect(whilePaused).toEqual([]);
	});

	it('the offer fails while paused: the question takes the "1" later, once, and it runs nowhere', async () => {
		const { key, whilePaused, all } = await offerFails(true);
		expect(resumes).toEqual([{ key, data: expect.objectContaining({ approved: true }) }]);
		expect(whilePaused).toEqual([]);
		expect(all).not.toContain('1');
	});
});

/*
 * R10b-3 (R10-2 as fixed): a burst given up on stays so only while every ask about it fails. The
 * poll asks again about a possible answer that ran as an ordinary message (its answer bursts hold
 * a "1" answered by the account or not), and one ask that reaches n8n (its URL back a while) forgets
 * the give-up (probePatience.ts `asked`). When n8n's own URL fails again, the next read of the
 * chat (the person's new lost message) counts the "1" that ran from 1: the chat waits whole 2 more
 * polls over 10 more minutes, and the log says once more that the "1" runs as an ordinary message
 * "now", though it ran long before and runs nothing now. Seen on 7fe1587: "where is my parcel?"
 * runs at minute 43, not 33, and the give-up is logged twice. Severity: low (a delay within Max
 * Age, a wrong warning; nothing lost or run twice). Smallest fix (tried: this test, review10,
 * review9c2 and chatCatchUp tests pass): probePatience.ts `asked` keeps an entry given up on
 * (`if (memory?.get(key)?.gaveUp !== true) memory?.delete(key)`); an ask that succeeds still offers
 * what waits (chatCatchUp.ts `decided` reads the memory only when the ask fails), and
 * forgetFailingBefore drops the entry once past Max Age.
 */
describe('review s10b: a possible answer given up on and run, n8n answering a while, then failing again (R10b-3)', () => {
	async function flapping(backAWhile: boolean) {
		const { poll } = await start();
		await ask(question());
		setDown(true);
		h.sandbox.webhooks.faults.loseNext(1);
		const one = say('1');
		const minutes: Record<string, number> = {};
		for (let at = 1; at <= 50; at++) {
			if (backAWhile && at === 20) {
				setDown(false);
				accountWrites('Noted, we are looking into it.');
			}
			if (backAWhile && at === 27) setDown(true);
			if (at === 30) {
				h.sandbox.webhooks.faults.loseNext(1);
				say('where is my parcel?');
			}
			h.sandbox.clock.advance(MINUTE);
			const before = poll.executions.length;
			await poll.poll();
			for (const item of poll.executions.slice(before).flat()) minutes[String(item.json.text)] = at;
		}
		const gaveUp = poll.warnings.filter(
			(line) => line.includes('could not ask whether') && line.includes(one.id),
		);
		// The "1" ran as a message once, and no ask offered it: never an answer too.
		expect({ one: minutes['1'], resumes }).toEqual({ one: 14, resumes: [] });
		return { minutes, gaveUp: gaveUp.length };
	}

	it('control: n8n never answers: the "1" given up on once, "where is my parcel?" runs 3 minutes after it', async () => {
		const { minutes, gaveUp } = await flapping(false);
		expect({ gaveUp, parcel: minutes['where is my parcel?'] }).toEqual({ gaveUp: 1, parcel: 33 });
	});

	it('R10b-3: n8n answering a while in between: still given up on once, "where is my parcel?" runs 3 minutes after it', async () => {
		const { minutes, gaveUp } = await flapping(true);
		expect({ gaveUp, parcel: minutes['where is my parcel?'] }).toEqual({
			gaveUp: 1,
			parcel: 33,
		});
	});
});

/*
 * R10b-4: the give-up counts per burst, and the chat waits whole while any burst of it is
 * undecided (chatCatchUp.ts `decided`). While a question waits, every message of the chat that
 * asks nothing back (no question mark: shared/conversation/answers.ts questionOf) is a possible
 * answer, so with n8n's own URL failing and the deliveries lost (a broken public address fails
 * both), a person who writes again within ~10 minutes starts a new undecided burst before the last
 * one's give-up: each burst is given up on in turn, and logged ("they run as ordinary
 * messages, once no other reply of the chat waits"), but the chat never runs: nothing of it runs
 * while they keep writing, and the "1" passes Max Age, lost. Seen on 7fe1587: a message every 8
 * minutes for 75 minutes, 9 give-ups logged, no run in 80 minutes (control, every 20 minutes: each
 * runs 13 minutes after it). Severity: medium (the setting the give-up exists for; a chatty person
 * loses the chat's messages while n8n's URL fails). Smallest fix: chatCatchUp.ts runs the chat's
 * bursts written before its first undecided one (given up on, or decided), holding only that one
 * and what follows: written order kept; or count the give-up per chat, so a chat whose asks failed
 * at 2 polls over 10 minutes gives up on every burst of it. Tried: `givesUp(memory, chat, '', now)`
 * in `decided` (one count per chat, which `asked` never resets) passes this test and R10b-3's, and
 * review10, review9c2 and chatCatchUp tests still pass.
 */
describe("review s10b: n8n's own URL failing, a person writing again every few minutes (R10b-4)", () => {
	async function chatty(every: number) {
		const { poll } = await start();
		await ask(question());
		setDown(true);
		for (let at = 0; at < 80; at++) {
			if (at % every === 0 && at < 75) {
				h.sandbox.webhooks.faults.loseNext(1);
				say(at === 0 ? '1' : `still waiting (${at / every})`);
			}
			h.sandbox.clock.advance(MINUTE);
			await poll.poll();
		}
		return passedOn(poll);
	}

	it('control: a message every 20 minutes: each runs as a message, the "1" first', async () => {
		expect(await chatty(20)).toEqual([
			'1',
			'still waiting (1)',
			'still waiting (2)',
			'still waiting (3)',
		]);
	});

	it('R10b-4: a message every 8 minutes: the "1" runs as a message within Max Age', async () => {
		expect(await chatty(8)).toContain('1');
	});
});

/*
 * R10b-5 (found checking R10-7's bound; older than 27f1854): the Catch-Up poll catches up nothing
 * when the trigger's Quiet Window is 180 s or more (the field allows up to 300 s). A chat is read
 * once it has been quiet CATCH_UP_AFTER_MS (3 minutes) plus the quiet window (catchUpPoll.ts
 * dueChats `ready`), but listed only while its newest message is above the floor, the previous
 * poll less LOOK_BACK_MS = 3 + 2 minutes (pollMemory.ts windowOf `listFloor`): with Poll Times
 * every minute, from a quiet window of 3 minutes on (2 minutes plus the Poll Times interval) the
 * floor passes the chat before it is ready, and no poll ever reads it. Seen on 7fe1587: a lost
 * message, polls every minute for 30 minutes, quiet window 150 s: run at minute 6; 180 s or 300 s:
 * nothing, and nothing logged. Severity: medium (the node silently does nothing for a setting the
 * trigger allows; its description advises 8 s or less, so few users meet it). Smallest fix (tried:
 * this test passes): pollMemory.ts `listFloor = Math.max(since, active.lastPollAt - LOOK_BACK_MS -
 * settings.grouping.quietMs)`, and the same look-back where `read` entries are forgotten and in
 * moveFloor; or cap the quiet window the poll allows for at 2 minutes and say so.
 */
describe('review s10b: the Catch-Up poll with a long quiet window (R10b-5)', () => {
	async function lostWith(quietWindowSeconds: number) {
		const { poll } = await start({ quietWindowSeconds, longestWaitSeconds: 600 });
		h.sandbox.webhooks.faults.loseNext(1);
		say('where is my parcel');
		for (let at = 1; at <= 30; at++) {
			h.sandbox.clock.advance(MINUTE);
			await poll.poll();
		}
		return passedOn(poll);
	}

	it('control: a 150 s quiet window: the lost message is caught up', async () => {
		expect(await lostWith(150)).toEqual(['where is my parcel']);
	});

	it('R10b-5: a 180 s quiet window: the lost message is caught up', async () => {
		expect(await lostWith(180)).toEqual(['where is my parcel']);
	});

	it('R10b-5: a 300 s quiet window (the most allowed): the lost message is caught up', async () => {
		expect(await lostWith(300)).toEqual(['where is my parcel']);
	});
});
