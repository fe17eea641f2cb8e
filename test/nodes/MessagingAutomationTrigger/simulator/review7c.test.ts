import { describe, expect, it, vi } from 'vitest';

import { claimRun } from '../../../../nodes/MessagingAutomationTrigger/run/runClaim';
import { putBackTakeBacks } from '../../../support/processedData';
import {
	earlierAnswerRun,
	earlierThenHello,
	ranIds,
	firstStepContext,
	type Link,
	notWaiting,
	offeredIds,
	takesFirst,
	TRIGGER_CLAIMANT,
	useStoreOnFakeTimers,
} from '../run/firstStepContext';

/*
 * Review s7c, of c95afba (S7-7: stillOurs returns the offer's messages no later run took over, and
 * the offer goes on with those). Two ways the narrowed offer still loses an answer.
 */

const offers: string[][] = [];

useStoreOnFakeTimers(() => {
	offers.length = 0;
});

/*
 * R43f-1 (offerUntilDecided): n8n's refusal after a try that may have resumed counts
 * `run.messageIds[0]` as taken. That try offered the whole burst; once a later run took the "1"
 * over, `run.messageIds[0]` is the "2", which the node never took: the "2" runs no workflow, and
 * no run offers it again (its end is recorded).
 */
describe('review s7c: a narrowed offer meeting the question no longer waiting', () => {
	/**
	 * The question takes the first message offered to it. With `late`, the original run's second
	 * try (3 s) resumes it with the "1" but n8n answers after the trigger's 5 s time-out; else the
	 * original run's tries fail (n8n's 502) and "hello"'s offer of the "1" resumes it.
	 */
	function question(late: boolean) {
		const state = { resumedWith: [] as string[] };
		const link: Link = async (options) => {
			const ids = offeredIds(options);
			offers.push(ids);
			if (state.resumedWith.length > 0) return await notWaiting();
			if (!ids.includes('msg-two')) {
				state.resumedWith.push(ids[0]);
				return await takesFirst(options);
			}
			if (!late || offers.length === 1)
				return { statusCode: 502, body: { message: 'Bad Gateway' } };
			return await new Promise((_, reject) =>
				setTimeout(() => {
					state.resumedWith.push(ids[0]);
					reject(new Error(`timeout of ${String(options.timeout)}ms exceeded`));
				}, options.timeout ?? 5000),
			);
		};
		return { state, link };
	}

	it('control: the question takes the "1" of the original run\'s own burst offer: the "2" runs once', async () => {
		const link: Link = async (options) => {
			offers.push(offeredIds(options));
			return await takesFirst(options);
		};
		const original = claimRun(
			firstStepContext('wf-s7c-9c', earlierAnswerRun(true), link),
			TRIGGER_CLAIMANT,
			1,
		);
		await vi.runAllTimersAsync();
		expect(ranIds(await original)).toEqual(['msg-two']);
	});

	// S7-9: the "1" taken over by "hello"'s run, which the question took; the original run's next try
	// (153 s) offers the "2" alone, meets n8n's 409 after its 502s and counted the "2" as the answer.
	// Fixed: the message counted is the first of a try that may have resumed it (offerTries.ts).
	it('S7-9: the "2" of a burst runs once when the next message\'s run took over the "1" and the question took it', async () => {
		const { state, link } = question(false);
		expect(await earlierThenHello('wf-s7c-9', link, 40_000, true)).toEqual([
			'msg-hello',
			'msg-two',
		]);
		expect(state.resumedWith).toEqual(['msg-one']);
	});

	// S7-9 (time-out): the original run's own try resumed the question with the "1" late; "hello"'s
	// run took the "1" over (and runs it, S7-2); the original run's next try (33 s) offers the "2"
	// alone, meets 409 and counted the "2" as the answer: it ran no workflow. Fixed as S7-9.
	it('S7-9 (time-out): the "2" of a burst runs once when its "1" resumed the question in a try that timed out and the next message\'s run took the "1" over', async () => {
		const { state, link } = question(true);
		const ran = await earlierThenHello('wf-s7c-9t', link, 7000, true);
		expect(state.resumedWith).toEqual(['msg-one']);
		expect(ran.filter((id) => id === 'msg-two')).toEqual(['msg-two']);
	});
});

/*
 * S7-6's trap, in stillOurs, per message: between tries the run asked whether it still held each
 * message's offer by claiming `settled|<id>` and taking the claim back. Another process's whole-
 * record write (read between that claim and its take-back), or a failed take-back, put the key
 * back; at the next try stillOurs read it as a later run's take-over and dropped that message: it
 * ran in no run, and no later run offered it again (its `settled|` record was there). Fixed: the
 * run claims each try's own key and keeps it (offerTries.ts), so it takes nothing back; the test
 * puts back every take-back, the worst another process's writes can do.
 */
describe("review s7c: the run's own ask between tries, put back, read as a take-over", () => {
	/** Tries 1 and 2 fail (n8n's 502), the third gets the node's refusal. */
	const failsTwice: Link = async (options) => {
		offers.push(offeredIds(options));
		if (offers.length <= 2) return { statusCode: 502, body: { message: 'Bad Gateway' } };
		return { statusCode: 200, body: { answered: false } };
	};

	async function alone(workflow: string, burst: boolean, putBack: boolean) {
		const putBackKeys = putBack ? putBackTakeBacks() : [];
		const run = claimRun(
			firstStepContext(workflow, earlierAnswerRun(burst), failsTwice),
			TRIGGER_CLAIMANT,
			1,
		);
		await vi.runAllTimersAsync();
		return { ran: ranIds(await run).sort(), putBack: putBackKeys };
	}

	it('control: the burst "1" "2" refused at the third try runs once each', async () => {
		expect((await alone('wf-s7c-10c', true, false)).ran).toEqual(['msg-one', 'msg-two']);
		expect(offers).toEqual([
			['msg-one', 'msg-two'],
			['msg-one', 'msg-two'],
			['msg-one', 'msg-two'],
		]);
	});

	it('S7-10: the "1" of a burst refused at the third try runs once when every take-back is put back by another process\'s write', async () => {
		const { ran, putBack } = await alone('wf-s7c-10', true, true);
		expect(ran).toEqual(['msg-one', 'msg-two']);
		// The class: the offer claims nothing only to ask, so nothing of it can be put back.
		expect(putBack).toEqual([]);
	});

	it('S7-10 (alone): the "1" refused at the third try runs once when every take-back is put back by another process\'s write', async () => {
		expect((await alone('wf-s7c-10a', false, true)).ran).toEqual(['msg-one']);
	});
});
