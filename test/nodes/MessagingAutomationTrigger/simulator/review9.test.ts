import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { claimRun } from '../../../../nodes/MessagingAutomationTrigger/run/runClaim';
import { entryOf, failProcessedData, processedRecords } from '../../../support/processedData';
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
	TRIGGER_NODE,
	useStoreOnFakeTimers,
} from '../run/firstStepContext';
import {
	badGateway,
	carriedBurst,
	carriedHello,
	refusesAnswer as refuses,
	retryOf as sharedRetryOf,
	runOf,
	stepOf as sharedStepOf,
	type StepOptions,
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
 */

const offers: string[][] = [];

useStoreOnFakeTimers(() => {
	offers.length = 0;
});

const counted =
	(link: Link): Link =>
	async (options) => {
		offers.push(offeredIds(options));
		return await link(options);
	};

/** The step's context, its offers counted. */
const stepOf = (workflow: string, item: INodeExecutionData, link: Link, options?: StepOptions) =>
	sharedStepOf(workflow, item, counted(link), options);

const retryOf = async (workflow: string, item: INodeExecutionData, link: Link) =>
	await sharedRetryOf(workflow, item, link, stepOf);

/** The "1"'s own run, whose first try gets `first`; n8n stops (or cancels) it in the pause after. */
async function firstRunStopsAfter(workflow: string, first: Link): Promise<void> {
	const cancel = new AbortController();
	const link: Link = async (options) => {
		setTimeout(() => cancel.abort(), 1000);
		return await first(options);
	};
	expect(await runOf(stepOf(workflow, earlierAnswerRun(), link, { cancel }))).toEqual([]);
}

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

	it.fails(
		'R9-3: a Retry of "ok" "hello"\'s failed run during the "1"\'s try: the question resumes once',
		async () => {
			expect(await helloDuringTry('wf-s9-3', 'retry')).toEqual({
				resumes: 1,
				ran: ['msg-hello', 'msg-ok'],
			});
		},
	);
});

/*
 * R9-4. A Retry records its messages as run before it offers (recordRetried), but not its
 * answers' `answer|<id>` ("its offers hold their tries and ends themselves"). Cancelled while it
 * offers (Stop on a Retry held for minutes by its tries, or the workflow's timeout), it gives back
 * the ends it held so that "the next run of the chat offers again" (R8b-2); n8n drops its output.
 * When the run it retries never claimed the answer (it failed at its claim: "Not run", the store
 * down, the case whose error asks for a Retry), no run ever claimed `answer|<id>`, so the next
 * message's run takes the "1" for an answer written while the trigger was inactive and does not
 * offer it: the "1" is in no run and its question is not resumed. The cancelled Retry is
 * 'canceled', which the editor offers no Retry on (only the original, again).
 */
describe('review s9: a Retry cancelled while it offers, of a run that failed at its claim', () => {
	/** The Retry of `item`'s run, its first try n8n's 502, cancelled by n8n in the pause after. */
	async function retryCancelled(workflow: string, item: INodeExecutionData) {
		const cancel = new AbortController();
		const link: Link = async () => {
			setTimeout(() => cancel.abort(), 1000);
			return await badGateway();
		};
		// What it passes on n8n drops: the execution was cancelled.
		await runOf(stepOf(workflow, item, link, { mode: 'retry', cancel }));
	}

	/** The person's next message's run, the "1" still an answer waiting: whether it offers the "1". */
	async function nextOffersOne(workflow: string): Promise<boolean> {
		offers.length = 0;
		await stepToEnd(workflow, helloRun(), counted(takesFirst));
		return offers.some((ids) => ids.includes('msg-one'));
	}

	it('control: the retried run stopped during its offer (it claimed the "1"): the next message\'s run offers the "1" again', async () => {
		await firstRunStopsAfter('wf-s9-4c', badGateway);
		await retryCancelled('wf-s9-4c', earlierAnswerRun());
		expect(await nextOffersOne('wf-s9-4c')).toBe(true);
	});

	it.fails(
		'R9-4: the retried run failed at its claim ("Not run"): the next message\'s run offers the "1" again',
		async () => {
			failProcessedData(9);
			expect(await runOf(stepOf('wf-s9-4', carriedBurst([['msg-one', '1']]), badGateway))).toMatch(
				/^Not run/,
			);
			failProcessedData(0);
			await retryCancelled('wf-s9-4', carriedBurst([['msg-one', '1']]));
			expect(await nextOffersOne('wf-s9-4')).toBe(true);
		},
	);

	/** Whether the record holds `id` as a message that ran (no catch-up runs it then). */
	const recordedAsRun = (workflow: string, id: string) =>
		(processedRecords().get(`${workflow}/`) ?? []).includes(
			entryOf(`${TRIGGER_NODE.id}|message|${id}`),
		);

	it('control: a delivered run of "why?" "1" cancelled while it offers leaves "why?" unclaimed, for a catch-up', async () => {
		const cancel = new AbortController();
		const link: Link = async () => {
			setTimeout(() => cancel.abort(), 1000);
			return await badGateway();
		};
		expect(
			await runOf(stepOf('wf-s9-4w', carriedBurst([['msg-one', '1']]), link, { cancel })),
		).toEqual([]);
		expect(recordedAsRun('wf-s9-4w', 'msg-why')).toBe(false);
	});

	it.fails(
		'R9-4 (others): its Retry cancelled while it offers leaves "why?", which ran nowhere, unclaimed',
		async () => {
			failProcessedData(9);
			await runOf(stepOf('wf-s9-4x', carriedBurst([['msg-one', '1']]), badGateway));
			failProcessedData(0);
			await retryCancelled('wf-s9-4x', carriedBurst([['msg-one', '1']]));
			expect(recordedAsRun('wf-s9-4x', 'msg-why')).toBe(false);
		},
	);
});

/*
 * R9-5. What the builder sees. A delivered run whose answer a question took ends at the trigger,
 * its custom data saying `answered a Send and Wait question` (the plain words' promise, Executions
 * list); a Retry whose offer the question took (or that counts it taken, or leaves it to another
 * run) passes nothing on and marks nothing: the Retry the builder clicked shows an execution that
 * stopped at the trigger with no item and no word of why. The reason is in n8n's log only.
 */
describe('review s9: what a Retry whose answer a question took shows', () => {
	async function marksOf(workflow: string, mode: 'webhook' | 'retry') {
		const marks: string[] = [];
		const context = stepOf(
			workflow,
			earlierAnswerRun(),
			takesFirst,
			mode === 'retry' ? { mode } : {},
		);
		(context as IExecuteFunctions & { customData: { set: unknown } }).customData.set = (
			key: string,
			value: string,
		) => marks.push(`${key}: ${value}`);
		expect(await runOf(context)).toEqual([]);
		return marks;
	}

	it('control: the delivered run says the "1" answered a question', async () => {
		expect(await marksOf('wf-s9-5c', 'webhook')).toEqual([
			'messaging_automation: answered a Send and Wait question',
		]);
	});

	it.fails('R9-5: the Retry of the stopped run says the "1" answered a question', async () => {
		await firstRunStopsAfter('wf-s9-5', badGateway);
		expect(await marksOf('wf-s9-5', 'retry')).toEqual([
			'messaging_automation: answered a Send and Wait question',
		]);
	});
});

/*
 * R9-6 (docs). conversations.md says of the "Not run" error's Retry: it "passes on all it holds,
 * as a person asked (but answers whose offer another run ended or holds: see answers in the
 * chat)". Since 8e467fc a Retry offers its item's own answers again whoever ended their offer
 * (answers-in-chat.md step 4, holdForRetry); only earlier answers are left to another run. The
 * burst's own run ran "why?" and the "1" its question refused; its carried copy failed ("Not
 * run": "most often one did"); the builder retries the copy: "why?" runs a second time, as
 * conversations.md says, and so does the "1", which it says the Retry leaves to that run.
 */
describe('review s9: the Retry of a "Not run" copy, as conversations.md tells it', () => {
	/** "why?" "1" as the burst's own run has it: started by the "1"'s delivery, its last message. */
	const ownBurst = (): INodeExecutionData => {
		const { json } = carriedBurst([['msg-one', '1']]);
		return { json: { ...json, event_id: 'evt-one', data: { message: { id: 'msg-one' } } } };
	};

	async function retryOfCopy(workflow: string, question: Link) {
		expect(await runOf(stepOf(workflow, ownBurst(), question))).toEqual(
			question === refuses ? ['msg-one', 'msg-why'] : ['msg-why'],
		);
		failProcessedData(9);
		const copy = stepOf(workflow, carriedBurst([['msg-one', '1']]), question);
		expect(await runOf(copy)).toMatch(/^Not run/);
		failProcessedData(0);
		return await retryOf(workflow, carriedBurst([['msg-one', '1']]), notWaiting);
	}

	it('control: the own run\'s offer taken: the Retry runs "why?" again, not the "1"', async () => {
		expect(await retryOfCopy('wf-s9-6c', takesFirst)).toEqual(['msg-why']);
	});

	it.fails(
		'R9-6: the own run\'s offer refused, the "1" run there: the Retry leaves the "1" to that run',
		async () => {
			expect(await retryOfCopy('wf-s9-6', refuses)).toEqual(['msg-why']);
		},
	);
});
