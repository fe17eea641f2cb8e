import { describe, expect, it, vi } from 'vitest';

import {
	claimed,
	CLAIM_RECHECKS_MS,
} from '../../../../nodes/MessagingAutomationTrigger/run/claimStore';
import {
	failProcessedData,
	overwriteClaimOf,
	processedRecords,
} from '../../../support/processedData';
import {
	earlierAnswerRun,
	stepToEnd,
	earlierThenHello,
	firstStepContext,
	helloRun,
	type Link,
	offeredIds,
	notWaiting,
	takesFirst,
	TRIGGER_CLAIMANT,
	useStoreOnFakeTimers,
} from '../run/firstStepContext';
import { claimRun } from '../../../../nodes/MessagingAutomationTrigger/run/runClaim';

/*
 * Review s7: S6-1's second write covers `message|` and `event|` keys only. n8n's store reads the
 * trigger's record and writes it back whole (deduplication-helper.js), so the same concurrent write
 * of another queue-mode worker (or that worker's own second write, which is such a write too)
 * drops a `settled|` record, the offer's end, as readily as a run's claim; nothing writes it again.
 * The person's next message then finds the question still waiting, an answer claimed and no offer
 * end recorded (answerReoffer.ts), and makes the offer again: the "1" that already ran as a message
 * runs a second time (refused), or runs the bot and resumes the question (taken).
 * Fixed: every claim is written again at 1 s and 10 s, but keys its run took back (claimStore.ts).
 */

const offers: string[][] = [];

/** The node answers that the message is no answer to its question (it still waits). */
const refuses: Link = async (options) => {
	offers.push(offeredIds(options));
	return { statusCode: 200, body: { answered: false } };
};

let lastDrop: ReturnType<typeof overwriteClaimOf> | undefined;

/**
 * Every try of the offer fails without a verdict (n8n's 502 before the node), so the "1" runs as a
 * message. With `dropEnd`, another process's write drops the next claim of the offer's end after
 * each try: the last try's is the record of the end (settle), the others' the run asking between
 * tries whether it still holds the offer (offerTries.ts stillOurs), which takes its claim back anyway.
 */
const unreachable =
	(dropEnd: boolean): Link =>
	async (options) => {
		offers.push(offeredIds(options));
		if (dropEnd) lastDrop = overwriteClaimOf('settled|msg-one');
		return { statusCode: 502, body: { message: 'Bad Gateway' } };
	};

const takes: Link = async (options) => {
	offers.push(offeredIds(options));
	return await takesFirst(options);
};

useStoreOnFakeTimers(() => {
	offers.length = 0;
	lastDrop = undefined;
});

describe("review s7: an offer's end dropped by a concurrent write", () => {
	it('control: the "1" refused runs once; the next message does not offer it again', async () => {
		expect(await stepToEnd('wf-s7-control', earlierAnswerRun(), refuses)).toEqual(['msg-one']);
		expect(await stepToEnd('wf-s7-control', helloRun(), refuses)).toEqual(['msg-hello']);
		expect(offers).toEqual([['msg-one']]);
	});

	// S7-1: the `settled|` record is not written again (claimStore.ts recheck); dropped, the next
	// message's run offers the "1" again, and refused it runs a second time, as a caught-up item.
	it('S7-1: the "1" refused runs once when another process\'s write at the same moment dropped its offer\'s end', async () => {
		const drop = overwriteClaimOf('settled|msg-one');
		expect(await stepToEnd('wf-s7-refused', earlierAnswerRun(), refuses)).toEqual(['msg-one']);
		expect(drop.dropped()).toBe(true);
		expect(await stepToEnd('wf-s7-refused', helloRun(), refuses)).toEqual(['msg-hello']);
		expect(offers).toEqual([['msg-one']]);
	});

	it('control: the "1" whose offer never reached the node runs once as a message, and the question is not resumed later', async () => {
		expect(await stepToEnd('wf-s7-control-2', earlierAnswerRun(), unreachable(false))).toEqual([
			'msg-one',
		]);
		const tries = offers.length;
		expect(await stepToEnd('wf-s7-control-2', helloRun(), takes)).toEqual(['msg-hello']);
		expect(offers).toHaveLength(tries);
	});

	// S7-1 (run and resume): the same dropped record after an offer that ran the "1" as a message
	// (no try reached the node): the next message's run offers it again and the question takes it.
	it('S7-1: the "1" that ran as a message never also resumes its question when its offer\'s end was dropped', async () => {
		expect(await stepToEnd('wf-s7-resume', earlierAnswerRun(), unreachable(true))).toEqual([
			'msg-one',
		]);
		expect(lastDrop?.dropped()).toBe(true);
		const tries = offers.length;
		expect(await stepToEnd('wf-s7-resume', helloRun(), takes)).toEqual(['msg-hello']);
		expect(offers).toHaveLength(tries);
	});
});

/*
 * S6-5 makes an earlier answer offered again and refused run as a caught-up item. A refusal there
 * includes n8n's 409 (the question no longer waits), which an offer made again cannot tell apart
 * from the earlier run's own offer having resumed the question: that run's try timed out (n8n
 * answered late, after resuming), and before its next try the next message's run took the offer
 * over (answerReoffer.ts). The earlier run, when it meets 409 after such a try, counts the "1" as
 * taken (R43f-1); the run that took the offer over knows nothing of that try and runs the "1".
 */
describe('review s7: an offer taken over after a try that resumed', () => {
	/** The node takes the "1" at its second try, n8n answering only after the trigger stopped waiting. */
	function lateResume() {
		const question = { waiting: true };
		const link: Link = async (options) => {
			offers.push(offeredIds(options));
			if (!question.waiting) return await notWaiting();
			if (offers.length === 1) return { statusCode: 502, body: { message: 'Bad Gateway' } };
			return await new Promise((_, reject) =>
				setTimeout(() => {
					question.waiting = false;
					reject(new Error(`timeout of ${String(options.timeout)}ms exceeded`));
				}, options.timeout ?? 5000),
			);
		};
		return { question, link };
	}

	it('control: without the next message, the earlier run counts the "1" as taken and runs it nowhere', async () => {
		const { question, link } = lateResume();
		const original = claimRun(
			firstStepContext('wf-s7-2c', earlierAnswerRun(), link),
			TRIGGER_CLAIMANT,
			1,
		);
		await vi.runAllTimersAsync();
		expect(question.waiting).toBe(false);
		expect((await original).flat()).toEqual([]);
	});

	// S7-2: the run that took the offer over met 409 and ran the "1". Fixed: it claimed the earlier
	// run's tries left, found the tries it made, and counts them as its own (offerTries.ts triedBefore).
	it('S7-2: the "1" that resumed its question in a try that timed out runs no workflow when the next message\'s run took its offer over', async () => {
		const { question, link } = lateResume();
		const original = claimRun(
			firstStepContext('wf-s7-2', earlierAnswerRun(), link),
			TRIGGER_CLAIMANT,
			1,
		);
		// Its first try at 0 s failed; its second, at 3 s, is in flight: "hello"'s delivery finds q-1 waiting.
		await vi.advanceTimersByTimeAsync(7000);
		expect(question.waiting).toBe(true);
		const hello = claimRun(firstStepContext('wf-s7-2', helloRun(), link), TRIGGER_CLAIMANT, 1);
		await vi.runAllTimersAsync();
		const ran = [...(await original), ...(await hello)]
			.flat()
			.map((item) => String(item.json.message_id));
		expect(question.waiting).toBe(false);
		expect(ran).toEqual(['msg-hello']);
	});
});

/*
 * CLAIM_RECHECK_MS (then 1 s) was said to outlast "one database round trip" between another process's
 * read of the record and its write. That gap is the other process's: its database queue, and its
 * event loop, which a queue-mode worker busy with a heavy workflow (a Code node, a large item list)
 * holds for seconds. A write that lands after the second write drops the claim for good, and the
 * next catch-up runs the message again: the store's records, reached as the test store keeps them.
 * Fixed: the claim is written again at 10 s too (claimStore.ts CLAIM_RECHECKS_MS); a gap longer
 * than that stays open.
 */
const records = processedRecords();

describe("review s7: another process's write later than the second write", () => {
	const context = (workflow: string) => firstStepContext(workflow, { json: {} }, notWaiting);
	const POLLED = { ...TRIGGER_CLAIMANT, polled: true };

	/** Another process reads the record now and writes it back (with a key of its own) `gapMs` later. */
	async function claimWhileAnotherWrites(workflow: string, gapMs: number) {
		await claimed(context(workflow), ['message|other-chat'], TRIGGER_CLAIMANT);
		await vi.advanceTimersByTimeAsync(Math.max(...CLAIM_RECHECKS_MS));
		const read = [...(records.get(`${workflow}/`) ?? [])];
		const fresh = await claimed(context(workflow), ['message|m1'], TRIGGER_CLAIMANT);
		expect([...fresh!]).toEqual(['message|m1']);
		await vi.advanceTimersByTimeAsync(gapMs);
		records.set(`${workflow}/`, [...read, 'another-process-key']);
		await vi.advanceTimersByTimeAsync(Math.max(...CLAIM_RECHECKS_MS));
		// The person's next message, or the Catch-Up poll, asks whether m1 ran.
		return [...(await claimed(context(workflow), ['message|m1'], POLLED))!];
	}

	it('control: a write 0.5 s after its read is repaired by the second write', async () => {
		expect(await claimWhileAnotherWrites('wf-s7-gap-short', 500)).toEqual([]);
	});

	it('S7-4: a claim stays in the record when the other process writes 1.5 s after its read (a busy worker)', async () => {
		expect(await claimWhileAnotherWrites('wf-s7-gap-long', 1500)).toEqual([]);
	});
});

/*
 * answerReoffer.ts: "one [offer the earlier run] starts just before [this run takes the record] is
 * over before this run offers". Before S6-5 that sufficed: an offer made again and not taken ran
 * nowhere. Now it runs (answerPass.ts rest), and the earlier run's try that ends after the take
 * still ends its offer (answeredIn: settle's claim, not fresh, is not looked at): the "1" refused
 * runs in both runs; taken, the take's offer meets 409 and runs it as a message.
 */
describe("review s7: the earlier run's try in flight when the next message's run takes its offer", () => {
	/**
	 * n8n's webhook path fails the earlier run's first three tries (0, 3 and 33 s); its last, at
	 * 153 s, gets the node's verdict 4 s later (within the 5 s time-out).
	 */
	function slowLastTry(takesIt: boolean) {
		const question = { waiting: true };
		const link: Link = async (options) => {
			offers.push(offeredIds(options));
			if (!question.waiting) return await notWaiting();
			if (offers.length <= 3) return { statusCode: 502, body: { message: 'Bad Gateway' } };
			if (offers.length === 4) await new Promise((resolve) => setTimeout(resolve, 4000));
			if (!takesIt) return { statusCode: 200, body: { answered: false } };
			question.waiting = false;
			return await takesFirst(options);
		};
		return { question, link };
	}

	/**
	 * The "1"'s run, and "hello"'s run (written 2.5 minutes after the "1", its delivery finding q-1
	 * still waiting) started `afterMs` after it: by default 4.5 s before the last try.
	 */

	it('control: "hello"\'s run started after the last try ended finds the offer ended: the "1" refused runs once', async () => {
		const { link } = slowLastTry(false);
		const ran = await earlierThenHello('wf-s7-5c', link, 157_500);
		expect(ran.filter((id) => id === 'msg-one')).toHaveLength(1);
		expect(offers).toHaveLength(4);
	});

	// S7-5: the earlier run's last try began after the next message's run took the offer's end: the
	// "1" refused ran in both runs; taken, the take's offer met 409 and ran it. Fixed: the next
	// message's run first takes the tries left (offerTries.ts tryKeys), so that try is never made.
	it('S7-5: the "1" refused runs once, when the next message\'s run took its offer over just before the earlier run\'s last try', async () => {
		const { link } = slowLastTry(false);
		const ran = await earlierThenHello('wf-s7-5', link, 148_500);
		expect(ran.filter((id) => id === 'msg-one')).toHaveLength(1);
	});

	it('S7-5 (taken): the "1" the question took runs no workflow, when the next message\'s run took its offer over just before the earlier run\'s last try', async () => {
		const { question, link } = slowLastTry(true);
		const ran = await earlierThenHello('wf-s7-5t', link, 148_500);
		expect(question.waiting).toBe(false);
		expect(ran).toEqual(['msg-hello']);
	});

	/**
	 * The earlier run's last try (153 s) is in flight when "hello"'s run takes its tries left
	 * (153.5 s); the try ends 4.9 s on with the node's verdict, and n8n's store then fails the
	 * earlier run's record of the offer's end for 3.1 s, so "hello"'s run takes that record first.
	 */
	async function lateEnd(workflow: string, takesIt: boolean) {
		const { question, link } = slowLastTry(takesIt);
		const slowed: Link = async (options) => {
			const last = offers.length === 3;
			if (last) await new Promise((resolve) => setTimeout(resolve, 900));
			const answer = await link(options);
			if (last) failProcessedData(5);
			return answer;
		};
		const ran = await earlierThenHello(workflow, slowed, 153_500);
		return { question, ran };
	}

	it('S7-5 (end recorded late): the "1" refused runs once, when the earlier run recorded its offer\'s end after the next message\'s run took it', async () => {
		const { ran } = await lateEnd('wf-s7-5l', false);
		expect(ran.filter((id) => id === 'msg-one')).toHaveLength(1);
		expect(offers).toHaveLength(5);
	});

	it('S7-5 (end recorded late, taken): the "1" the earlier run\'s last try gave its question runs no workflow', async () => {
		const { question, ran } = await lateEnd('wf-s7-5lt', true);
		expect(question.waiting).toBe(false);
		expect(ran).toEqual(['msg-hello']);
		expect(offers).toHaveLength(5);
	});
});
