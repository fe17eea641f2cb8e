import { describe, expect, it } from 'vitest';

import { putBackTakeBacks } from '../../../support/processedData';
import {
	earlierAnswerRun,
	stepToEnd,
	earlierThenHello,
	type Link,
	offeredIds,
	useStoreOnFakeTimers,
} from '../run/firstStepContext';

/*
 * Review s7b, of c9cfee2 (settle returns false when its `settled|` claim is not fresh, and the
 * messages then run nowhere): a claim not fresh is read as "a later run took the offer over", but
 * the same record is also left by the run's own question between tries (offerTries.ts stillOurs
 * claims `settled|<id>` and takes it back). n8n's store writes the trigger's record back whole
 * without a lock: another process (a queue-mode worker) that read it between stillOurs' claim and
 * its take-back, and writes after, puts the key back; so does a take-back that fails (claimStore.ts
 * takeBack: "a failure keeps them"). No later run holds the offer, yet the earlier run's settle
 * finds the key, and the refused "1" runs in no run: lost (before c9cfee2 it ran). No later run
 * offers it again either: its offer's end is recorded. Now the run claims each try's own key and
 * keeps it, and asks nothing it takes back (offerTries.ts), so a `settled|` claim not fresh is a
 * later run's take-over; the test puts back every take-back, the worst such writes can do.
 */

const offers: string[][] = [];
/** The first try fails without a verdict (n8n's 502), the second gets the node's refusal. */
const failsThenRefuses: Link = async (options) => {
	offers.push(offeredIds(options));
	if (offers.length === 1) return { statusCode: 502, body: { message: 'Bad Gateway' } };
	return { statusCode: 200, body: { answered: false } };
};

useStoreOnFakeTimers(() => {
	offers.length = 0;
});

describe("review s7b: the earlier run's own question between tries read as a take-over", () => {
	it('control: the "1" refused at its second try runs once, as a message', async () => {
		expect(await stepToEnd('wf-s7b-6c', earlierAnswerRun(), failsThenRefuses)).toEqual(['msg-one']);
		expect(offers).toHaveLength(2);
	});

	// S7-6: settle's claim not fresh, with no later run holding the offer: the "1" ran nowhere under
	// c9cfee2 (S7-5's first fix, which read that as a take-over). Holds since the run asks nothing it
	// takes back (offerTries.ts: each try's own key, kept), so a key put back is never its own ask.
	it('S7-6: the "1" refused at its second try runs once when another process\'s write puts back every take-back', async () => {
		putBackTakeBacks();
		expect(await stepToEnd('wf-s7b-6', earlierAnswerRun(), failsThenRefuses)).toEqual(['msg-one']);
	});
});

/*
 * A mixed offer: the earlier run offers the burst "1" "2" (both answer q-1) as one offer; the next
 * message's run finds one earlier answer only (earlierAnswer.ts: the first before the turn), the
 * "1", and takes over its `settled|` record alone. The earlier run reads the take-over by all of
 * its offer's keys or none: stillOurs (`fresh.size === keys.length`) gives the whole offer up,
 * so the "2", which no run offers again, runs nowhere (lost); settle (c9cfee2, `fresh.size > 0`)
 * keeps it whole, so the "1" refused runs in both runs (S7-5 open for a burst).
 */
describe("review s7b: a burst's offer of which the next message's run takes one message over", () => {
	/**
	 * The earlier run's tries of "1" "2" fail (n8n's 502) but its `slowLast`: at 153 s, 4 s long,
	 * refused. The next message's offer of the "1" alone is refused.
	 */
	const burstLink =
		(slowLast: boolean): Link =>
		async (options) => {
			const ids = offeredIds(options);
			offers.push(ids);
			const burst = offers.filter((offered) => offered.includes('msg-two')).length;
			if (!ids.includes('msg-two') || (slowLast && burst === 4)) {
				if (ids.includes('msg-two')) await new Promise((resolve) => setTimeout(resolve, 4000));
				return { statusCode: 200, body: { answered: false } };
			}
			return { statusCode: 502, body: { message: 'Bad Gateway' } };
		};

	it('control: "hello"\'s run after the burst\'s offer ended: "1" and "2" refused run once each', async () => {
		expect(await earlierThenHello('wf-s7b-7c', burstLink(true), 160_000, true)).toEqual([
			'msg-hello',
			'msg-one',
			'msg-two',
		]);
	});

	// S7-7: stillOurs read the "1"'s take-over as the whole offer's: the "2" ran in no run. Fixed:
	// the offer narrows to the messages still its own (offerTries.ts).
	it('S7-7: the "2" of a burst offer runs once when the next message\'s run took over the offer of the "1" alone between tries', async () => {
		expect(await earlierThenHello('wf-s7b-7', burstLink(false), 40_000, true)).toEqual([
			'msg-hello',
			'msg-one',
			'msg-two',
		]);
	});

	// S7-8: settle's `fresh.size > 0` kept a burst offer taken over in part: the "1" ran twice. Fixed:
	// the next message's run takes the "1"'s last try (offerTries.ts tryKeys), so the earlier run's last
	// try offers the "2" alone.
	it('S7-8: the "1" of a burst offer runs once when the next message\'s run took it over before the last try', async () => {
		expect(await earlierThenHello('wf-s7b-8', burstLink(true), 148_500, true)).toEqual([
			'msg-hello',
			'msg-one',
			'msg-two',
		]);
	});
});
