import { describe, expect, it, vi } from 'vitest';

import { claimRun } from '../../../../nodes/MessagingAutomationTrigger/run/runClaim';
import { failProcessedData } from '../../../support/processedData';
import {
	earlierAnswerRun,
	helloRun,
	type Link,
	nodeCouldNotRead,
	notWaiting,
	offeredIds,
	ranIds,
	stepToEnd,
	takesFirst,
	TRIGGER_CLAIMANT,
} from '../run/firstStepContext';
import {
	badGateway,
	carriedBurst,
	refusesAnswer as refuses,
	runOf,
	useCountedOffers,
} from '../run/retryFixtures';

/*
 * Review s8b, of c022dae (a try that resumed nothing is recorded, `clean|<id>|<n>`; n8n's Retry of
 * an execution holds its offers: answerReoffer.ts holdForRetry). n8n re-runs the trigger's step on
 * Retry only when that step is where the execution stopped: it failed (`Not run: messages …`,
 * unclaimedRun.ts, which tells the user to retry), or n8n stopped during it (crashed). The editor
 * offers Retry for 'error' and 'crashed' executions only (n8n's service refuses only a queued or a
 * finished one, so a running one can be retried through the API). The stopped runs below are
 * cancelled on the fake clock: n8n stopping leaves the same records, and a crashed execution.
 */

const { offers, counted, stepOf, retryOf, firstRunStopsAfter } = useCountedOffers();

/** "why?" then "1", the run started by "why?"'s delivery (a carried start), the "1" offered to q-1. */
const carriedOne = () => carriedBurst([['msg-one', '1']]);

/*
 * R8b-1. A Retry counts every try of the retried run without a `clean|` record as one that may have
 * resumed the question (triedBefore), and n8n's 409 after one counts the message as taken. But a
 * try that got a verdict resumed nothing too, and is never recorded clean: n8n's own 409, or the
 * node's refusal. The retried run's step ended its offer there (the "1" refused: it would run as a
 * message) and then failed, so the "1" ran nowhere; its Retry, meeting the question no longer
 * waiting (answered by its link, or its wait limit came: a Retry comes minutes or days later),
 * counts the "1" as taken: it runs in no run and resumed nothing. Before c022dae the Retry ran it.
 */
describe('review s8b: a Retry of a run whose step refused its answer, then failed', () => {
	it('control: the step failed at its claim, before its offer: the Retry runs the "1" its question no longer takes', async () => {
		failProcessedData(9);
		expect(await runOf(stepOf('wf-s8b-1c', carriedOne(), notWaiting))).toMatch(/^Not run/);
		failProcessedData(0);
		expect(await retryOf('wf-s8b-1c', carriedOne(), notWaiting)).toEqual(['msg-one', 'msg-why']);
	});

	// Open: the store down from the refusal on, neither the try's clean record nor the end is kept.
	it.fails(
		'R8b-1: the step refused the "1" (409: its question answered by its link), then failed ("Not run": the store down at the late claim): the Retry runs the "1"',
		async () => {
			const downAfter: Link = async () => {
				failProcessedData(60);
				return await notWaiting();
			};
			expect(await runOf(stepOf('wf-s8b-1', carriedOne(), downAfter))).toMatch(/^Not run/);
			failProcessedData(0);
			expect(await retryOf('wf-s8b-1', carriedOne(), notWaiting)).toEqual(['msg-one', 'msg-why']);
		},
	);

	// Fixed: a try the node or n8n refused is recorded clean too (offerTries.ts), and the Retry runs
	// the message whose offer another run ended with only clean tries (answerReoffer.ts holdForRetry).
	it('R8b-1 (refused): the node refused the "1", n8n stopped before the step ended; the Retry, the question\'s wait limit come, runs the "1"', async () => {
		// The step ends (its output never reaches n8n, which stopped): its records are what counts.
		await runOf(stepOf('wf-s8b-1r', earlierAnswerRun(), refuses));
		expect(await retryOf('wf-s8b-1r', earlierAnswerRun(), notWaiting)).toEqual(['msg-one']);
	});
});

/*
 * R8b-2. A Retry cancelled while it offers (a person presses Stop on a run hanging for minutes, or
 * the workflow's timeout) takes back `settled|<id>` for every message it holds (answerPass.ts),
 * though holdForRetry keeps every id whether its claim of that record was fresh or not: it gives
 * back the record of an end another run made. The "1"'s run stopped after one try; "hello"'s run
 * took its offer over and ended it (the "1", refused, ran there); the Retry of the stopped run is
 * cancelled in its pause; the next message's run then finds no end recorded, offers the "1" again
 * and runs it a second time (taken instead: run and resumed).
 */
describe('review s8b: a Retry cancelled while it offers', () => {
	async function endedThenNext(workflow: string, retry: boolean) {
		await firstRunStopsAfter(workflow, badGateway);
		const ran = await stepToEnd(workflow, helloRun(), counted(refuses));
		expect(ran.sort()).toEqual(['msg-hello', 'msg-one']);
		if (retry) {
			const cancel = new AbortController();
			const link: Link = async () => {
				setTimeout(() => cancel.abort(), 1000);
				return await badGateway();
			};
			const context = stepOf(workflow, earlierAnswerRun(), link, { mode: 'retry', cancel });
			expect(await runOf(context)).toEqual([]);
		}
		const next = { json: { ...helloRun().json, message_id: 'msg-hello-2', event_id: 'evt-h2' } };
		return [...ran, ...(await stepToEnd(workflow, next, counted(refuses)))].filter(
			(id) => id === 'msg-one',
		);
	}

	it('control: no Retry: the "1" refused in "hello"\'s run runs once', async () => {
		expect(await endedThenNext('wf-s8b-2c', false)).toEqual(['msg-one']);
	});

	// Fixed: a Retry holds only the offers whose end it claimed first, so it gives back no other's.
	it('R8b-2: a Retry of the stopped run, cancelled in its pause: the "1" refused in "hello"\'s run runs once', async () => {
		expect(await endedThenNext('wf-s8b-2', true)).toEqual(['msg-one']);
	});
});

/*
 * R8b-3. holdForRetry offers whether or not its claim of `settled|<id>` was fresh: a Retry made while
 * a later run holds the offer (it took it over, and pauses between tries) offers beside it. The
 * earlier run's one try got the node's 503, recorded clean (c022dae), so "hello"'s take-over counts
 * no try that may have resumed; its own first try gets the node's 503 too; the Retry's offer, in
 * the pause, is taken; "hello"'s next try meets 409 and runs the "1": run and resumed, on n8n 2.x.
 * (Before c022dae the take-over counted the earlier try, and counted the "1" as taken.)
 */
describe('review s8b: a Retry while a later run holds the offer', () => {
	async function retryInTakeOver(workflow: string, retry: boolean) {
		await firstRunStopsAfter(workflow, nodeCouldNotRead);
		let resumed = 0;
		const question: Link = async (options) => {
			if (resumed > 0) return await notWaiting();
			// "hello"'s first try: the node cannot read the chat yet.
			if (offers.length === 2) return await nodeCouldNotRead();
			resumed++;
			return await takesFirst(options);
		};
		const hello = claimRun(stepOf(workflow, helloRun(), question), TRIGGER_CLAIMANT, 1);
		// "hello"'s take-over waits 6 s, then tries; its next try is 3 s after.
		await vi.advanceTimersByTimeAsync(7000);
		expect(offers).toHaveLength(2);
		const retried = retry
			? claimRun(
					stepOf(workflow, earlierAnswerRun(), question, { mode: 'retry' }),
					TRIGGER_CLAIMANT,
					1,
				)
			: Promise.resolve([]);
		await vi.runAllTimersAsync();
		const ran = [...ranIds(await hello), ...ranIds(await retried)];
		return { resumed, oneRan: ran.includes('msg-one') };
	}

	it('control: no Retry: "hello"\'s next try is taken, the "1" runs nowhere', async () => {
		expect(await retryInTakeOver('wf-s8b-3c', false)).toEqual({ resumed: 1, oneRan: false });
	});

	// Open again: the Retry offers its item's own answers again whoever ended their offer (R8c-1 to
	// R8c-3), so it meets a take-over under way; its offer taken, the take-over's next try meets 409.
	it.fails(
		'R8b-3: a Retry of the stopped run during "hello"\'s take-over: the "1" is never both taken and run',
		async () => {
			expect(await retryInTakeOver('wf-s8b-3', true)).toEqual({ resumed: 1, oneRan: false });
		},
	);
});

/*
 * R8b-4. holdForRetry's claims failing (the store down past 25.5 s) leave the Retry's offer unheld
 * ("as a test run's", runClaim.ts), where the docs now say a Retry's offers are never made again:
 * R8-2 comes back. The Retry's tries get n8n's 502 and it runs the "1" as a message; the next
 * message's run finds no end recorded and offers it again: the question takes it.
 */
describe('review s8b: a Retry whose holding claims fail', () => {
	async function retryThenHello(workflow: string, failures: number) {
		await firstRunStopsAfter(workflow, badGateway);
		failProcessedData(failures);
		expect(await retryOf(workflow, earlierAnswerRun(), badGateway)).toEqual(['msg-one']);
		failProcessedData(0);
		const resumed: string[] = [];
		await stepToEnd(workflow, helloRun(), async (options) => {
			resumed.push(offeredIds(options)[0]);
			return await takesFirst(options);
		});
		return resumed;
	}

	it('control: the store answers: the "1" the Retry ran is never also taken through the next message', async () => {
		expect(await retryThenHello('wf-s8b-4c', 0)).toEqual([]);
	});

	it.fails(
		'R8b-4: the store failing the Retry\'s record of its messages and its claim of the tries (10 attempts): the "1" it ran is never also taken',
		async () => {
			expect(await retryThenHello('wf-s8b-4', 10)).toEqual([]);
		},
	);
});

/*
 * R8b-5 (R8-4's loss, now for a Retry). A Retry holds `settled|<id>` from its start; n8n stopped
 * while the Retry offers (its execution crashed; it gets no end, and takes nothing back) leaves the
 * "1" in no run, and no later run offers it again. Before c022dae a Retry held nothing, and the
 * next message's run offered the "1" again.
 */
describe('review s8b: a Retry stopped by n8n while it offers', () => {
	async function retryStopsThenHello(workflow: string, retry: boolean) {
		await firstRunStopsAfter(workflow, badGateway);
		if (retry) {
			const stopped: Link = async () => await new Promise(() => undefined);
			void claimRun(
				stepOf(workflow, earlierAnswerRun(), stopped, { mode: 'retry' }),
				TRIGGER_CLAIMANT,
				1,
			);
			await vi.advanceTimersByTimeAsync(1000);
			expect(offers).toHaveLength(2);
		}
		return await stepToEnd(workflow, helloRun(), counted(refuses));
	}

	it('control: no Retry: the next message\'s run offers the "1" again, refused it runs', async () => {
		expect((await retryStopsThenHello('wf-s8b-5c', false)).sort()).toEqual([
			'msg-hello',
			'msg-one',
		]);
	});

	it.fails(
		'R8b-5: the Retry stopped by n8n while it offers: the next message\'s run offers the "1" again',
		async () => {
			expect((await retryStopsThenHello('wf-s8b-5', true)).sort()).toEqual([
				'msg-hello',
				'msg-one',
			]);
		},
	);
});
