import type { INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { claimRun } from '../../../../nodes/MessagingAutomationTrigger/run/runClaim';
import {
	failProcessedData,
	overwriteClaimOf,
	putBackTakeBacks,
} from '../../../support/processedData';
import {
	earlierAnswerRun,
	earlierThenHello,
	firstStepContext,
	helloRun,
	type Link,
	nodeCouldNotRead,
	notWaiting,
	offeredIds,
	ranIds,
	stepToEnd,
	takesFirst,
	TRIGGER_CLAIMANT,
	useStoreOnFakeTimers,
} from '../run/firstStepContext';
import { badGateway, stepOf } from '../run/retryFixtures';

/*
 * Review s8, of 0638b43 (each try of an offer is its own key, `try|<id>|<n>`, claimed before it and
 * kept; a later run takes the offer over by claiming the tries left, waits 6 s, takes `settled|<id>`
 * and counts the earlier run's tries as its own).
 */

const offers: string[][] = [];

useStoreOnFakeTimers(() => {
	offers.length = 0;
});

const refuses: Link = async (options) => {
	offers.push(offeredIds(options));
	return { statusCode: 200, body: { answered: false } };
};

/** The "1"'s own run: its first try gets n8n's 502, and n8n cancels the run (or stops) in the pause. */
async function firstRunStopsAfterOneTry(workflow: string): Promise<void> {
	const cancel = new AbortController();
	const link: Link = async (options) => {
		offers.push(offeredIds(options));
		setTimeout(() => cancel.abort(), 1000);
		return await badGateway();
	};
	const run = claimRun(stepOf(workflow, earlierAnswerRun(), link, { cancel }), TRIGGER_CLAIMANT, 1);
	await vi.runAllTimersAsync();
	expect(ranIds(await run)).toEqual([]);
}

/** The person's message after "hello" (written later, its delivery finding q-1 still waiting). */
function secondHello(): INodeExecutionData {
	const item = helloRun();
	return {
		json: { ...item.json, message_id: 'msg-hello-2', event_id: 'evt-hello-2' },
	};
}

/*
 * R8-1. The later run counts every try the earlier run claimed as one that may have resumed the
 * question (answerReoffer.ts: `tried`, any try key not fresh), where the earlier run itself counts
 * only tries that may have: not the node's 503 (it resumed nothing, answerOffers.ts resumedNothing).
 * The node cannot read the chat, so the earlier run's tries at 0, 3 and 33 s get its 503; the
 * person writes "hello" at 60 s and its run takes the offer over; the question is answered by its
 * link meanwhile. The take-over's offer meets 409 and counts the "1" as taken: it runs in no run
 * and resumed nothing. Without "hello", the earlier run's last try meets the same 409 and runs it.
 */
describe('review s8: tries that resumed nothing counted by the run that took the offer over', () => {
	/** The node's 503 for three tries, then the question no longer waits (answered by its link). */
	const readFailsThenLinkAnswers: Link = async (options) => {
		offers.push(offeredIds(options));
		return offers.length <= 3 ? await nodeCouldNotRead() : await notWaiting();
	};

	it('control: without the next message, the "1" whose tries got the node\'s 503 runs once when its question was answered by its link', async () => {
		expect(await stepToEnd('wf-s8-1c', earlierAnswerRun(), readFailsThenLinkAnswers)).toEqual([
			'msg-one',
		]);
		expect(offers).toHaveLength(4);
	});

	// Fixed: the earlier run records a try that resumed nothing (offerTries.ts cleanKeys), and the
	// take-over counts only its other tries (answerReoffer.ts triedBefore).
	it('R8-1: the "1" whose tries got the node\'s 503 runs once when "hello"\'s run took its offer over and the question was answered by its link', async () => {
		const ran = await earlierThenHello('wf-s8-1', readFailsThenLinkAnswers, 60_000);
		expect(offers).toHaveLength(4);
		expect(ran.filter((id) => id === 'msg-one')).toEqual(['msg-one']);
	});
});

/*
 * R8-2. n8n's Retry of an execution (mode 'retry') offers its answers without claims
 * (runClaim.ts: passAnswers with nothing fresh): no try keys, no `settled|` record. The run it
 * retries (n8n stopped, or cancelled it, after its first try) claimed `answer|<id>`, so the
 * person's next message finds an answer claimed and no end recorded, and offers it again: the "1"
 * that the Retry ran as a message (its tries got no verdict) is then taken by its question too.
 * recordRetried's own reason ("a retry offers without a record of the offer's end, which a later
 * run would take for an offer n8n stopped") holds only when the original never claimed the answer.
 */
describe("review s8: n8n's Retry of a run stopped during its offer", () => {
	it('control: without a Retry, the "hello" run offers the "1" again and the question takes it: it runs nowhere', async () => {
		await firstRunStopsAfterOneTry('wf-s8-2c');
		const took: Link = async (options) => {
			offers.push(offeredIds(options));
			return await takesFirst(options);
		};
		expect(await stepToEnd('wf-s8-2c', helloRun(), took)).toEqual(['msg-hello']);
		expect(offers).toHaveLength(2);
	});

	// Fixed: a Retry holds its offers' tries and ends as a take-over does (answerReoffer.ts holdForRetry).
	it('R8-2: the "1" a Retry ran as a message (its tries got no verdict) is never also taken by its question through the next message', async () => {
		await firstRunStopsAfterOneTry('wf-s8-2');
		const unreachable: Link = async (options) => {
			offers.push(offeredIds(options));
			return await badGateway();
		};
		const retry = claimRun(
			stepOf('wf-s8-2', earlierAnswerRun(), unreachable, { mode: 'retry' }),
			TRIGGER_CLAIMANT,
			1,
		);
		await vi.runAllTimersAsync();
		expect(ranIds(await retry)).toEqual(['msg-one']);
		const resumed: string[] = [];
		const took: Link = async (options) => {
			offers.push(offeredIds(options));
			resumed.push(offeredIds(options)[0]);
			return await takesFirst(options);
		};
		await stepToEnd('wf-s8-2', helloRun(), took);
		expect(resumed).toEqual([]);
	});

	// Fixed as R8-2.
	it('R8-2 (refused): the "1" a Retry ran as a message (refused) runs once when the next message comes', async () => {
		await firstRunStopsAfterOneTry('wf-s8-2r');
		const retry = claimRun(
			stepOf('wf-s8-2r', earlierAnswerRun(), refuses, { mode: 'retry' }),
			TRIGGER_CLAIMANT,
			1,
		);
		await vi.runAllTimersAsync();
		const ran = [...ranIds(await retry), ...(await stepToEnd('wf-s8-2r', helloRun(), refuses))];
		expect(ran.filter((id) => id === 'msg-one')).toEqual(['msg-one']);
	});
});

/*
 * R8-3 and R8-4. The run that took the offer over holds `settled|<id>` from then on: no later run
 * offers again. Cancelled, it takes that record back (answerPass.ts), so the next message's run
 * offers again. R8-3: that take-back is a take-back, and another process's write of the whole
 * record (read before it) puts it back: the "1" then runs in no run, and no run offers it again.
 * R8-4: n8n stopped (not cancelled) while the take-over's offer is under way takes nothing back:
 * the same loss, where the Limits say "n8n stopped again while that run offers leaves it to the
 * next run that reads the chat".
 */
describe('review s8: the run that took the offer over, itself stopped', () => {
	/** "hello"'s run takes the "1"'s offer over; its first try gets n8n's 502; then `stop`. */
	async function helloTakesOverThen(workflow: string, stop: 'cancel' | 'crash' | 'cancel+putBack') {
		await firstRunStopsAfterOneTry(workflow);
		const cancel = new AbortController();
		const link: Link = async (options) => {
			offers.push(offeredIds(options));
			if (stop === 'crash') return await new Promise(() => undefined);
			if (stop === 'cancel+putBack') putBackTakeBacks();
			setTimeout(() => cancel.abort(), 1000);
			return await badGateway();
		};
		const hello = claimRun(stepOf(workflow, helloRun(), link, { cancel }), TRIGGER_CLAIMANT, 1);
		await vi.runAllTimersAsync();
		expect(offers).toHaveLength(2);
		// Cancelled, the step passes nothing on (n8n drops it); stopped, it never ends.
		if (stop !== 'crash') expect(ranIds(await hello)).toEqual([]);
		// The person's next message, its delivery finding q-1 still waiting.
		return await stepToEnd(workflow, secondHello(), refuses);
	}

	it('control: "hello"\'s run cancelled while it offers: the next message\'s run offers the "1" again, refused it runs once', async () => {
		expect((await helloTakesOverThen('wf-s8-3c', 'cancel')).sort()).toEqual([
			'msg-hello-2',
			'msg-one',
		]);
		expect(offers).toHaveLength(3);
	});

	it.fails(
		'R8-3: "hello"\'s run cancelled while it offers, its take-back of the offer\'s end put back by another process\'s write: the next message\'s run offers the "1" again',
		async () => {
			expect((await helloTakesOverThen('wf-s8-3', 'cancel+putBack')).sort()).toEqual([
				'msg-hello-2',
				'msg-one',
			]);
		},
	);

	it.fails(
		'R8-4: "hello"\'s run stopped by n8n while it offers: the next message\'s run offers the "1" again',
		async () => {
			expect((await helloTakesOverThen('wf-s8-4', 'crash')).sort()).toEqual([
				'msg-hello-2',
				'msg-one',
			]);
		},
	);
});

/*
 * R8-5 (before 0638b43 too). The earlier run's record of its offer's end fails (the store down past
 * its 25.5 s of attempts: settle's failure "says none: the run goes on"), and the "1", refused, runs
 * there as a message; its question still waits, so the next message's run finds an answer claimed
 * and no end recorded, takes the offer over and, refused again, runs the "1" a second time.
 */
describe("review s8: the earlier run's record of its offer's end failing", () => {
	/** The node refuses the "1"; after its first refusal the store fails `failures` claims. */
	const refusesThenStoreFails =
		(failures: number): Link =>
		async (options) => {
			if (offers.length === 0) failProcessedData(failures);
			return await refuses(options);
		};

	it('control: the store failing 8 claims, the "1" refused runs once', async () => {
		expect(await stepToEnd('wf-s8-5c', earlierAnswerRun(), refusesThenStoreFails(8))).toEqual([
			'msg-one',
		]);
		failProcessedData(0);
		expect(await stepToEnd('wf-s8-5c', helloRun(), refuses)).toEqual(['msg-hello']);
		expect(offers).toHaveLength(1);
	});

	it.fails(
		'R8-5: the store failing past 25.5 s at the record of the end, the "1" refused runs once',
		async () => {
			expect(await stepToEnd('wf-s8-5', earlierAnswerRun(), refusesThenStoreFails(24))).toEqual([
				'msg-one',
			]);
			failProcessedData(0);
			expect(await stepToEnd('wf-s8-5', helloRun(), refuses)).toEqual(['msg-hello']);
		},
	);
});

/*
 * R8-6. The take-over waits 6 s after claiming the tries left, for "a try in flight, begun before"
 * to end (answerReoffer.ts EARLIER_OFFER_ENDS_MS), counted from the later run's claim, not from the
 * earlier run's request. The earlier run claims its last try's key at 153 s, and its process is
 * held 2 s before the request goes out (claimStore.ts itself names a queue-mode worker whose event
 * loop a heavy workflow holds for seconds); "hello"'s run
 * takes the offer over at 153.5 s, takes the end's record at 159.5 s, and offers while that try
 * (sent at 155 s, 4.9 s long) is still under way: on n8n 1.x, which resumes as often as asked, both
 * resume the question.
 */
describe("review s8: the earlier run's try sent late after its claim", () => {
	/** n8n 1.x: every offer that reaches the node resumes; the earlier run's last try takes 4.9 s. */
	function n8n1(resumes: string[]): Link {
		return async (options) => {
			const ids = offeredIds(options);
			offers.push(ids);
			if (offers.length <= 3) return await badGateway();
			if (offers.length === 4) await new Promise((resolve) => setTimeout(resolve, 4900));
			resumes.push(ids[0]);
			return await takesFirst(options);
		};
	}

	async function lastTryHeld(workflow: string, heldMs: number) {
		const resumes: string[] = [];
		const link = n8n1(resumes);
		// The earlier run's process sends its last try `heldMs` after the claim of its key returned.
		const sentLate: Link = async (options) => {
			if (offers.length === 3) await new Promise((resolve) => setTimeout(resolve, heldMs));
			return await link(options);
		};
		const context = firstStepContext(workflow, earlierAnswerRun(), sentLate);
		const original = claimRun(context, TRIGGER_CLAIMANT, 1);
		await vi.advanceTimersByTimeAsync(153_500);
		const hello = claimRun(firstStepContext(workflow, helloRun(), link), TRIGGER_CLAIMANT, 1);
		await vi.runAllTimersAsync();
		const ran = [...ranIds(await original), ...ranIds(await hello)].sort();
		return { ran, resumes };
	}

	it('control: the earlier run\'s last try sent at once: the question resumes once, the "1" runs nowhere', async () => {
		expect(await lastTryHeld('wf-s8-6c', 0)).toEqual({
			ran: ['msg-hello'],
			resumes: ['msg-one'],
		});
	});

	it.fails(
		"R8-6: the earlier run's last try sent 2 s after its claim: the question resumes once on n8n 1.x",
		async () => {
			expect((await lastTryHeld('wf-s8-6', 2000)).resumes).toEqual(['msg-one']);
		},
	);
});

/*
 * R8-7. Two later runs each take the offer over by claiming `settled|<id>` (answerReoffer.ts): "one
 * later run at most offers again" rests on that claim alone. Without grouping, the person's two
 * quick messages ("hello", then another 0.5 s on) are two runs; the first's claim of the end's
 * record is dropped by another process's write at the same moment (claimStore.ts: it is written
 * again only 1 s on), and the second's claim, 0.5 s later, is fresh too: both offer the "1", and
 * refused, it runs in both (on n8n 1.x, taken, both resume the question).
 */
describe("review s8: two later runs, the first's take of the end dropped", () => {
	async function twoHellos(workflow: string, drop: boolean) {
		await firstRunStopsAfterOneTry(workflow);
		if (drop) overwriteClaimOf('settled|msg-one');
		const first = claimRun(firstStepContext(workflow, helloRun(), refuses), TRIGGER_CLAIMANT, 1);
		await vi.advanceTimersByTimeAsync(500);
		const second = claimRun(
			firstStepContext(workflow, secondHello(), refuses),
			TRIGGER_CLAIMANT,
			1,
		);
		await vi.runAllTimersAsync();
		return [...ranIds(await first), ...ranIds(await second)].filter((id) => id === 'msg-one');
	}

	it('control: the "1" refused runs once after the two messages', async () => {
		expect(await twoHellos('wf-s8-7c', false)).toEqual(['msg-one']);
	});

	it.fails(
		'R8-7: the "1" refused runs once when the first message\'s take of its end was dropped',
		async () => {
			expect(await twoHellos('wf-s8-7', true)).toEqual(['msg-one']);
		},
	);
});

/*
 * R8-8. The take-over still asks by claiming and taking back: whether a run claimed the earlier
 * answer (answerReoffer.ts claimedBefore, `answer|<id>`), though step 4 now says "Nothing in this is
 * claimed only to ask and taken back". The "1" was written while the trigger was inactive (no run
 * claimed it: "an answer written while the trigger was inactive is never offered"); "hello"'s run
 * asks, and another process's write puts its take-back back; the next message's run then finds the
 * "1" claimed as an answer, no end recorded, and offers it: the question takes it.
 */
describe("review s8: the take-over's own ask of `answer|<id>`, put back", () => {
	async function inactiveThenTwoMessages(workflow: string, putBack: boolean) {
		const taken: string[] = [];
		const took: Link = async (options) => {
			taken.push(offeredIds(options)[0]);
			return await takesFirst(options);
		};
		if (putBack) putBackTakeBacks();
		expect(await stepToEnd(workflow, helloRun(), took)).toEqual(['msg-hello']);
		expect(await stepToEnd(workflow, secondHello(), took)).toEqual(['msg-hello-2']);
		return taken;
	}

	it('control: the "1" written while the trigger was inactive is never offered', async () => {
		expect(await inactiveThenTwoMessages('wf-s8-8c', false)).toEqual([]);
	});

	it.fails(
		'R8-8: the "1" written while the trigger was inactive is never offered, when another process\'s write puts back the take-over\'s ask',
		async () => {
			expect(await inactiveThenTwoMessages('wf-s8-8', true)).toEqual([]);
		},
	);
});
