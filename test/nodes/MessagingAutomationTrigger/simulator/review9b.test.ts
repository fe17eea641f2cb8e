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
	ranIds,
	stepToEnd,
	takesFirst,
	TRIGGER_CLAIMANT,
	TRIGGER_NODE,
} from '../run/firstStepContext';
import {
	badGateway,
	carriedBurst,
	refusesAnswer as refuses,
	runOf,
	useCountedOffers,
} from '../run/retryFixtures';

/*
 * Review s9, continued (review9.test.ts has R9-1 to R9-3, R9-7 and how n8n offers Retry): a Retry
 * cancelled while it offers, what a Retry shows, the docs' word on the Retry of a "Not run" copy,
 * and two Retries of one execution at once.
 */

const { offers, counted, stepOf, retryOf, firstRunStopsAfter } = useCountedOffers();

/*
 * R9-4. A Retry records its messages as run before it offers (recordRetried), but not its
 * answers' `answer|<id>` ("its offers hold their tries and ends themselves"). Cancelled while it
 * offers (Stop on a Retry held for minutes by its tries, or the workflow's timeout), it gives back
 * the ends it held so that "the next run of the chat offers again" (R8b-2); n8n drops its output.
 * When the run it retries never claimed the answer (it failed at its claim: "Not run", the store
 * down, the case whose error asks for a Retry), no run ever claimed `answer|<id>`, so the next
 * message's run takes the "1" for an answer written while the trigger was inactive and does not
 * offer it: the "1" is in no run and its question is not resumed. "why?", recorded as run before
 * the offer, ran nowhere either (its output dropped), and no catch-up runs it: a delivered run
 * cancelled while it offers claims none of its others, for a catch-up. The cancelled Retry is
 * 'canceled', which the editor offers no Retry on; only Retry on the original again runs them.
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

	it('R9-5: the Retry of the stopped run says the "1" answered a question', async () => {
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

	// conversations.md now says what the code does (R9-6): the Retry offers its own answers again.
	it('R9-6: the own run\'s offer refused, the "1" run there: the Retry runs the "1" again, as the docs say', async () => {
		expect(await retryOfCopy('wf-s9-6', refuses)).toEqual(['msg-one', 'msg-why']);
	});
});

/*
 * R9-8. The editor keeps offering Retry on the original until a Retry of it succeeds
 * (retrySuccessId), and a Retry whose offer gets no verdict is held for up to 2.5 minutes by its
 * tries: a builder who sees nothing happen clicks Retry again. The second Retry finds the offer's
 * tries and end claimed by the first, and offers all the same (holdForRetry: its own answers
 * whoever ended or holds them), at once; neither records a try clean (both hold the offer). The
 * first Retry's try got the node's 503 (it resumed nothing); the second's offer, in the first's
 * pause, is taken; the first's next try meets n8n's 409 with no try of its own that may have
 * resumed, so it runs the "1" as a message: run and resumed, on n8n 2.x (R8b-3's mechanism, with a
 * Retry where the Limits name a take-over). On n8n 1.x in queue mode two tries in flight at once
 * resume twice.
 */
describe('review s9: a second Retry of one execution while the first still offers', () => {
	async function retries(workflow: string, second: boolean) {
		await firstRunStopsAfter(workflow, nodeCouldNotRead);
		let resumed = 0;
		let tries = 0;
		const question: Link = async (options) => {
			tries++;
			if (resumed > 0) return await notWaiting();
			// The first Retry's first try: the node cannot read the chat yet.
			if (tries === 1) return await nodeCouldNotRead();
			resumed++;
			return await takesFirst(options);
		};
		const retry = (link: Link) =>
			claimRun(stepOf(workflow, earlierAnswerRun(), link, { mode: 'retry' }), TRIGGER_CLAIMANT, 1);
		const first = retry(question);
		// The first Retry's try got the 503; it pauses 3 s.
		await vi.advanceTimersByTimeAsync(1000);
		const again = second ? retry(question) : Promise.resolve([]);
		await vi.runAllTimersAsync();
		const ran = [...ranIds(await first), ...ranIds(await again)];
		return { resumed, oneRan: ran.includes('msg-one') };
	}

	it('control: one Retry: its next try is taken, the "1" runs nowhere', async () => {
		expect(await retries('wf-s9-8c', false)).toEqual({ resumed: 1, oneRan: false });
	});

	it.fails(
		'R9-8: a second Retry clicked in the first one\'s pause: the "1" is never both taken and run',
		async () => {
			expect(await retries('wf-s9-8', true)).toEqual({ resumed: 1, oneRan: false });
		},
	);
});
