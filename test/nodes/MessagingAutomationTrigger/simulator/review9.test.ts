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
	carriedHello,
	refusesAnswer as refuses,
	runOf,
	stepOf as sharedStepOf,
	useCountedOffers,
} from '../run/retryFixtures';

/*
 * Review s9, of 8e467fc and 63f58a9 (n8n's Retry offers its item's own answers again whoever ended
 * their offer, holds the ends no run recorded, and leaves earlier answers another run ended or
 * holds to that run: answerReoffer.ts holdForRetry, run/retriedRun.ts), read as an attacker and as
 * the workflow builder who clicks Retry. n8n's editor offers Retry on an execution that is
 * 'error' or 'crashed' and has no successful retry (retrySuccessId): so on the original again
 * after a Retry that failed or crashed, and on that Retry too; its API retries any execution that
 * is neither queued nor finished, a running one included (ExecutionService.retry, 1.123.81 and
 * 2.40.7). A Retry whose execution n8n cancels ('canceled') is not offered Retry in the editor.
 * Here R9-1 to R9-3 and R9-7; review9b.test.ts has R9-4 to R9-6 and R9-8.
 */

const { offers, counted, stepOf, retryOf, firstRunStopsAfter } = useCountedOffers();

/*
 * R9-1. A Retry holds its offer (holdForRetry claims every try key left), so it records none of its
 * tries clean (offerTries.ts recordClean: own messages only), and the tries it claimed and never
 * made have no clean record either. A second Retry (of the original again, or of the first Retry:
 * both stay retriable in the editor when the first crashed) counts them all as tries that may have
 * resumed the question; the question answered by its link in between, n8n's 409 counts the "1" as
 * taken: it runs in no run, though no try ever resumed the question, where the docs say "no longer
 * waited for, it counts as taken when a try may have resumed the question, else it runs".
 */
describe('review s9: a Retry of a Retry, the question answered by its link in between', () => {
	it('control: one Retry after the link answered runs the "1" the node could not read', async () => {
		await firstRunStopsAfter('wf-s9-1c', nodeCouldNotRead);
		expect(await retryOf('wf-s9-1c', earlierAnswerRun(), notWaiting)).toEqual(['msg-one']);
	});

	it.fails(
		'R9-1: the first Retry refused the "1" and n8n stopped before its step ended; the link answered; the second Retry runs the "1"',
		async () => {
			await firstRunStopsAfter('wf-s9-1', nodeCouldNotRead);
			// The step ends, its output never reaching n8n, which stopped: its records are what counts.
			expect(await retryOf('wf-s9-1', earlierAnswerRun(), refuses)).toEqual(['msg-one']);
			expect(await retryOf('wf-s9-1', earlierAnswerRun(), notWaiting)).toEqual(['msg-one']);
		},
	);
});

/*
 * R9-2. The design the docs state (step 4): a Retry offers its own answers again "whoever ended
 * their offer ... refused, it runs". The recovery the docs promise for an execution n8n stopped
 * during its offer is the person's next message: its run takes the offer over and ends it (the
 * "1", refused, runs there as a caught-up item). The stopped execution stays in n8n's list as
 * 'crashed', with Retry offered; the builder who clicks it gets the "1" run a second time, as a
 * plain item that says nothing of the run before. The Limits name the Retry during a take-over
 * under way (R8b-3) and the Retry of the take-over's own run (R8c-3), not this one, and the plain
 * words promise "neither run and resumed nor run twice, but for rare store and timing races".
 */
describe("review s9: a Retry of the stopped execution after the next message's run ended its offer", () => {
	async function takenOverThenRetry(workflow: string, question: Link) {
		await firstRunStopsAfter(workflow, nodeCouldNotRead);
		const ran = await stepToEnd(workflow, helloRun(), counted(question));
		const retried = await retryOf(workflow, earlierAnswerRun(), question);
		return { ran: [...ran, ...retried].filter((id) => id === 'msg-one'), offers: offers.length };
	}

	it("control: the take-over's offer taken: the Retry meets the question no longer waiting and runs nothing", async () => {
		let resumed = false;
		const question: Link = async (options) => {
			if (resumed) return await notWaiting();
			resumed = true;
			return await takesFirst(options);
		};
		expect(await takenOverThenRetry('wf-s9-2c', question)).toEqual({ ran: [], offers: 3 });
	});

	it.fails(
		'R9-2: the take-over\'s offer refused, the "1" run there: the Retry does not run the "1" a second time',
		async () => {
			expect(await takenOverThenRetry('wf-s9-2', refuses)).toEqual({
				ran: ['msg-one'],
				offers: 3,
			});
		},
	);
});

/*
 * R9-3. A Retry makes its offer at once ("No wait: the run it retries has ended", holdForRetry),
 * where a take-over waits 6 s for the earlier run's try in flight. But the Retry's item can carry
 * an earlier answer whose own run is still offering: the run of "ok" "hello" (a carried start)
 * failed ("Not run": n8n's store down at its claim; the editor offers Retry on it), or crashed
 * (its queue-mode worker stopped), 60 to 158 s after the "1", while the "1"'s own run, on another
 * worker, still tries (the node could not read, or n8n was slow). A Retry clicked while that
 * run's try is in flight offers beside it: n8n 1.x in queue mode (the two offers reach two
 * webhook processes, so the node's in-process claim does not see both) resumes the question
 * twice. The same through n8n's API, which retries a running execution (only queued and finished
 * ones are refused): a Retry of the "1"'s own execution while it offers.
 */
describe("review s9: a Retry while the earlier answer's own run still offers (n8n 1.x, queue mode)", () => {
	/**
	 * n8n 1.x behind a balancer: an offer that finds the execution still waiting resumes it once the
	 * node has looked its question up and read the chat (2 s); only then does n8n mark it running.
	 */
	function n8nOneQueueMode(): { link: Link; resumes: () => number } {
		let resumes = 0;
		const link: Link = async (options) => {
			offers.push(offeredIds(options));
			const waiting = resumes === 0;
			await new Promise((resolve) => setTimeout(resolve, 2000));
			if (!waiting) return await notWaiting();
			resumes++;
			return await takesFirst(options);
		};
		return { link, resumes: () => resumes };
	}

	async function helloDuringTry(workflow: string, mode: 'webhook' | 'retry') {
		const question = n8nOneQueueMode();
		const original = claimRun(
			sharedStepOf(workflow, earlierAnswerRun(), question.link),
			TRIGGER_CLAIMANT,
			1,
		);
		// The "1"'s try is in flight: the node is reading the chat.
		await vi.advanceTimersByTimeAsync(1000);
		expect(offers).toHaveLength(1);
		const hello = claimRun(
			sharedStepOf(workflow, carriedHello(), question.link, mode === 'retry' ? { mode } : {}),
			TRIGGER_CLAIMANT,
			1,
		);
		await vi.runAllTimersAsync();
		const ran = [...ranIds(await original), ...ranIds(await hello)];
		return { resumes: question.resumes(), ran: ran.sort() };
	}

	it('control: "ok" "hello"\'s delivered run takes the offer over after 6 s: the question resumes once', async () => {
		expect(await helloDuringTry('wf-s9-3c', 'webhook')).toEqual({
			resumes: 1,
			ran: ['msg-hello', 'msg-ok'],
		});
	});

	it('R9-3: a Retry of "ok" "hello"\'s failed run during the "1"\'s try: the question resumes once', async () => {
		expect(await helloDuringTry('wf-s9-3', 'retry')).toEqual({
			resumes: 1,
			ran: ['msg-hello', 'msg-ok'],
		});
	});
});

/*
 * R9-7. The next message's delivered run offers an earlier answer again only if a run claimed it
 * as an answer (`answer|<id>`, answerReoffer.ts claimedBefore): "an answer written while the
 * trigger was inactive is never offered", nor one that ran as an ordinary message without an
 * offer (its delivery's third attempt, n8n unable to reach its own URL: step 5). holdForRetry
 * does not ask: a Retry of that run (failed at its claim, "Not run", or crashed) offers the
 * earlier "1", and its question takes it: the "1" ran as a bot message and resumed the question
 * (or, refused, runs a second time as a caught-up item; with the trigger inactive then, it answers
 * a question the docs say only its links answer now).
 */
describe("review s9: a Retry of the next message's run, its earlier answer never claimed as one", () => {
	/** The "1" ran as an ordinary message: its delivery (the service's third attempt) carried no offer. */
	async function oneRanAsMessage(workflow: string) {
		const json = { ...earlierAnswerRun().json };
		delete json.answer_offers;
		expect(await runOf(stepOf(workflow, { json }, takesFirst))).toEqual(['msg-one']);
	}

	it('control: the delivered run of "ok" "hello" does not offer the "1" that ran', async () => {
		await oneRanAsMessage('wf-s9-7c');
		expect(await runOf(stepOf('wf-s9-7c', carriedHello(), takesFirst))).toEqual([
			'msg-hello',
			'msg-ok',
		]);
		expect(offers).toEqual([]);
	});

	it('R9-7: the Retry of the "ok" "hello" run that failed at its claim does not offer the "1" that ran', async () => {
		await oneRanAsMessage('wf-s9-7');
		failProcessedData(9);
		expect(await runOf(stepOf('wf-s9-7', carriedHello(), takesFirst))).toMatch(/^Not run/);
		failProcessedData(0);
		expect(await retryOf('wf-s9-7', carriedHello(), takesFirst)).toEqual(['msg-hello', 'msg-ok']);
		expect(offers).toEqual([]);
	});
});
