import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { claimRun } from '../../../../nodes/MessagingAutomationTrigger/run/runClaim';
import { failProcessedData } from '../../../support/processedData';
import {
	chatMessage,
	earlierAnswerRun,
	firstStepContext,
	helloRun,
	type Link,
	neverAnswers,
	nodeCouldNotRead,
	notWaiting,
	takesFirst,
	TRIGGER_CLAIMANT,
	useStoreOnFakeTimers,
} from '../run/firstStepContext';
import {
	carriedBurst,
	refusesAnswer as refuses,
	retryOf as sharedRetryOf,
	runOf,
} from '../run/retryFixtures';

/*
 * Review s8c, of 2ef6d52 (every try that resumed nothing is recorded clean; n8n's Retry does not
 * offer what another run ended or holds, and runs it when every try of it was recorded clean, else
 * nowhere). The Retry infers the ending run's verdict from the clean records alone, and takes
 * "another run" to be the run it retries.
 */

let writes = 0;

useStoreOnFakeTimers(() => {
	writes = 0;
});

/** A step context in `mode`; `failing` keys' claims always fail (n8n's store locked for them). */
function stepOf(
	workflow: string,
	item: INodeExecutionData,
	link: Link,
	options: { mode?: string; failing?: string; cancel?: AbortController } = {},
): IExecuteFunctions {
	const context = firstStepContext(workflow, item, link);
	const record = context.helpers.checkProcessedAndRecord.bind(context.helpers);
	const helpers = Object.assign(Object.create(context.helpers) as object, {
		checkProcessedAndRecord: async (...args: Parameters<typeof record>) => {
			writes++;
			const failing = options.failing;
			if (failing && args[0].some((key) => String(key).endsWith(failing)))
				throw new Error('SQLITE_BUSY: database is locked');
			return await record(...args);
		},
	});
	return Object.assign(context, {
		helpers,
		...(options.mode ? { getMode: () => options.mode } : {}),
		...(options.cancel ? { getExecutionCancelSignal: () => options.cancel!.signal } : {}),
	}) as IExecuteFunctions;
}

const retryOf = async (workflow: string, item: INodeExecutionData, link: Link) =>
	await sharedRetryOf(workflow, item, link, stepOf);

/** `link`'s answers in turn, the last one from then on. */
const inTurn =
	(...links: Link[]): Link =>
	async (options) =>
		await (links.length > 1 ? links.shift()! : links[0])(options);

/** The burst's step, its offers ended, fails at the claim of "why?" ("Not run": the store locked for it). */
async function failsAfterOffers(workflow: string, item: INodeExecutionData, link: Link) {
	const context = stepOf(workflow, item, link, { failing: '|message|msg-why' });
	expect(await runOf(context)).toMatch(/^Not run/);
}

/** The "1"'s own run, its first try the node's 503 (recorded clean); n8n stops it in the pause after. */
async function firstRunStopsAfterClean(workflow: string): Promise<void> {
	const cancel = new AbortController();
	const link: Link = async () => {
		setTimeout(() => cancel.abort(), 1000);
		return await nodeCouldNotRead();
	};
	expect(await runOf(stepOf(workflow, earlierAnswerRun(), link, { cancel }))).toEqual([]);
}

/*
 * R8c-1. The retried step ended its offer with the node's refusal after a try that timed out (or
 * after four tries without a verdict): it ran the "1" as a message, then failed. The timed-out
 * try has no clean record, so its Retry runs the "1" nowhere, though the node's refusal showed
 * that try resumed nothing. Before 2ef6d52 the Retry offered again: refused again, it ran.
 */
describe('review s8c: a Retry of a step whose refusal came after a try that timed out', () => {
	it('control: the refusal at the first try: the Retry runs the "1"', async () => {
		await failsAfterOffers('wf-s8c-1c', carriedBurst([['msg-one', '1']]), refuses);
		expect(await retryOf('wf-s8c-1c', carriedBurst([['msg-one', '1']]), refuses)).toEqual([
			'msg-one',
			'msg-why',
		]);
	});

	// Fixed: the Retry offers its item's own answers again, whoever ended their offer (holdForRetry).
	it('R8c-1: a time-out, then the node\'s refusal (the question still waits), then "Not run": the Retry runs the "1"', async () => {
		await failsAfterOffers(
			'wf-s8c-1',
			carriedBurst([['msg-one', '1']]),
			inTurn(neverAnswers, refuses),
		);
		expect(await retryOf('wf-s8c-1', carriedBurst([['msg-one', '1']]), refuses)).toEqual([
			'msg-one',
			'msg-why',
		]);
	});
});

/*
 * R8c-2. A burst "why?" "1" "2", the "1" and the "2" offered to one question in one try: the
 * question took the "1", so the "2" runs as a message; the step then failed. That try resumed the
 * question, so no clean record names it for either message, and the Retry runs the "2" nowhere.
 * Before 2ef6d52 the Retry offered again, counted the "1" taken (the try before resumed) and ran
 * the "2".
 */
describe('review s8c: a Retry of a burst whose offer took one answer and refused the other', () => {
	it('control: the "1" alone, taken, then "Not run": the Retry runs "why?" only', async () => {
		await failsAfterOffers('wf-s8c-2c', carriedBurst([['msg-one', '1']]), takesFirst);
		expect(await retryOf('wf-s8c-2c', carriedBurst([['msg-one', '1']]), notWaiting)).toEqual([
			'msg-why',
		]);
	});

	// Fixed: the Retry offers its item's own answers again, whoever ended their offer (holdForRetry).
	it('R8c-2: the "1" taken, the "2" refused, then "Not run": the Retry runs the "2"', async () => {
		const burst = () =>
			carriedBurst([
				['msg-one', '1'],
				['msg-two', '2'],
			]);
		await failsAfterOffers('wf-s8c-2', burst(), takesFirst);
		expect(await retryOf('wf-s8c-2', burst(), notWaiting)).toEqual(['msg-two', 'msg-why']);
	});
});

/*
 * R8c-3. A run that holds an offer (a Retry, or a later run's take-over) records none of its tries
 * clean (offerTries.ts recordClean: its own messages only), and the tries it claimed and never made
 * have no clean record either. Its execution stopped by n8n after its step ran the "1" (refused),
 * a Retry of that execution finds the offer ended elsewhere with unclean tries: the "1" runs
 * nowhere. Before 2ef6d52 that Retry offered again, and ran it refused.
 */
describe('review s8c: a Retry of a run that held the offer', () => {
	it('control: the first Retry of the stopped run runs the "1" the node refuses', async () => {
		await firstRunStopsAfterClean('wf-s8c-3c');
		expect(await retryOf('wf-s8c-3c', earlierAnswerRun(), refuses)).toEqual(['msg-one']);
	});

	// Fixed: the Retry offers its item's own answers again, whoever ended their offer (holdForRetry).
	it('R8c-3: that Retry stopped by n8n after its step (its output lost): a Retry of it runs the "1"', async () => {
		await firstRunStopsAfterClean('wf-s8c-3');
		expect(await retryOf('wf-s8c-3', earlierAnswerRun(), refuses)).toEqual(['msg-one']);
		expect(await retryOf('wf-s8c-3', earlierAnswerRun(), refuses)).toEqual(['msg-one']);
	});

	// Open: the Retry cannot tell the run it retries from another that ended the earlier answer's offer.
	it.fails(
		'R8c-3 (take-over): "hello"\'s run took the offer over and ran the "1", n8n stopped after its step: its Retry runs the "1"',
		async () => {
			await firstRunStopsAfterClean('wf-s8c-3t');
			expect(await runOf(stepOf('wf-s8c-3t', helloRun(), refuses))).toEqual([
				'msg-hello',
				'msg-one',
			]);
			expect(await retryOf('wf-s8c-3t', helloRun(), refuses)).toEqual(['msg-hello', 'msg-one']);
		},
	);
});

/** "ok" then "hello", started by "ok"'s delivery (a carried start), the earlier "1" offered again. */
function carriedHello(): INodeExecutionData {
	const json = helloRun({ grouped: true }).json;
	const ok = { ...chatMessage('msg-ok', 'ok', 1), timestamp: '2026-11-28T10:01:29.000Z' };
	return {
		json: {
			...json,
			event_id: 'evt-ok',
			message_id: 'msg-ok',
			data: { message: { id: 'msg-ok' } },
			messages: [ok, ...(json.messages as unknown[])],
			message_ids: ['msg-ok', 'msg-hello'],
		},
	};
}

/*
 * R8c-4. The Retry takes the run that ended an offer to be the run it retries. The "1"'s own run
 * ended its offer with the node's refusal and ran it; the next burst ("ok" "hello", a carried
 * start) still carries the "1" as an earlier answer (its probe found the question waiting), and
 * fails at its claim ("Not run", the store down; its error says to retry if no other execution
 * ran "ok" and "hello"). Its Retry finds the "1"'s offer ended elsewhere with clean tries only,
 * and runs the "1" a second time, without offering it. Before 2ef6d52 it offered it again: run
 * twice as well while the question waited, once when it no longer did (409, counted taken).
 */
describe("review s8c: a Retry of the next message's run, its earlier answer run already", () => {
	async function retryOfNext(workflow: string, first: Link) {
		await runOf(stepOf(workflow, earlierAnswerRun(), first));
		failProcessedData(9);
		expect(await runOf(stepOf(workflow, carriedHello(), notWaiting))).toMatch(/^Not run/);
		failProcessedData(0);
		return await retryOf(workflow, carriedHello(), notWaiting);
	}

	it('control: the "1" taken in its own run: the Retry runs "ok" and "hello" only', async () => {
		expect(await retryOfNext('wf-s8c-4c', takesFirst)).toEqual(['msg-hello', 'msg-ok']);
	});

	// Fixed: the Retry leaves an earlier answer whose offer another run ended to that run.
	it('R8c-4: the "1" refused and run in its own run: the Retry runs "ok" and "hello" only', async () => {
		expect(await retryOfNext('wf-s8c-4', refuses)).toEqual(['msg-hello', 'msg-ok']);
	});
});

/*
 * Cost (2ef6d52): a refusal's clean record is written, and waited for, before the offer's end is
 * recorded and the message runs: a refused "1" waits for two writes of the store after its
 * verdict (one before), a taken one for one; with the store failing, up to 25.5 s more.
 */
describe('review s8c: the writes a verdict waits for', () => {
	async function writesAfterVerdict(workflow: string, link: Link) {
		let atVerdict = -1;
		const run = claimRun(
			stepOf(workflow, earlierAnswerRun(), async (options) => {
				atVerdict = writes;
				return await link(options);
			}),
			TRIGGER_CLAIMANT,
			1,
		).then(() => writes - atVerdict);
		await vi.runAllTimersAsync();
		return await run;
	}

	it('a taken "1" waits for one write, a refused one for two', async () => {
		expect(await writesAfterVerdict('wf-s8c-5t', takesFirst)).toBe(1);
		expect(await writesAfterVerdict('wf-s8c-5r', refuses)).toBe(2);
	});
});
