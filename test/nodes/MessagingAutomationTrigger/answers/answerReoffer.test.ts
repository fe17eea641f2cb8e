import type { IHttpRequestOptions, INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { claimed } from '../../../../nodes/MessagingAutomationTrigger/run/claimStore';
import { claimRun } from '../../../../nodes/MessagingAutomationTrigger/run/runClaim';
import {
	firstStepContext,
	helloRun,
	type Link,
	neverAnswers,
	nodeCouldNotRead,
	notWaiting,
	offeredIds,
	takesFirst,
	TRIGGER_CLAIMANT,
	useStoreOnFakeTimers,
} from '../run/firstStepContext';

/*
 * An answer written before the turn, offered with the person's next message (answerRoute.ts:
 * earlierAnswer) when its question still waits: the run offers it only when a run claimed it as an
 * answer and none recorded the offer's end (answerReoffer.ts), and the next message runs as usual.
 * The run's first step is called as n8n calls it, on n8n's processed-data store, on fake timers.
 */

const offers: Array<{ at: number; ids: string[] }> = [];
let started = 0;

const taken = async (options: IHttpRequestOptions) => {
	offers.push({ at: Date.now() - started, ids: offeredIds(options) });
	return await takesFirst(options);
};

/** The "hello" run's first step to its end on the fake clock: the items it passes on. */
async function helloStep(workflow: string, item: INodeExecutionData, link: Link = taken) {
	const run = claimRun(firstStepContext(workflow, item, link), TRIGGER_CLAIMANT, 1);
	await vi.runAllTimersAsync();
	return (await run).flat();
}

async function runHello(workflow: string) {
	return (await helloStep(workflow, helloRun())).map((item) => item.json.message_id);
}

/** The link answering each try in turn (the last answer repeats), every offer counted. */
const inTurn =
	(...answers: Link[]): Link =>
	async (options) => {
		offers.push({ at: Date.now() - started, ids: offeredIds(options) });
		return await answers[Math.min(offers.length, answers.length) - 1](options);
	};

/** A run (n8n stopped or cancelled it after answering its delivery) claimed `ids` as answers, never ending their offers. */
async function claimedAsAnswers(workflow: string, ids: string[]) {
	const context = firstStepContext(workflow, helloRun(), taken);
	const keys = ids.flatMap((id) => [`message|${id}`, `answer|${id}`]);
	await claimed(context, keys, TRIGGER_CLAIMANT);
}

const TWO = { id: 'msg-two', text: '2', secondsBefore: 70, question: 'q-2', execution: 8 };
const ONE_EARLIER = { id: 'msg-one', text: '1', secondsBefore: 150, question: 'q-1', execution: 7 };

useStoreOnFakeTimers(() => {
	offers.length = 0;
	started = Date.now();
});

describe('an earlier answer offered with the next message (answerReoffer.ts)', () => {
	it('claimed as an answer by a run that never ended its offer (n8n stopped): offered again 6 s on, taken, and "hello" runs', async () => {
		const context = firstStepContext('wf-reoffer-1', helloRun(), taken);
		await claimed(context, ['message|msg-one', 'answer|msg-one'], TRIGGER_CLAIMANT);
		expect(await runHello('wf-reoffer-1')).toEqual(['msg-hello']);
		expect(offers).toEqual([{ at: 6000, ids: ['msg-one'] }]);
	});

	it('never claimed as an answer (written while the trigger was inactive): not offered, and "hello" runs', async () => {
		const context = firstStepContext('wf-reoffer-2', helloRun(), taken);
		await claimed(context, ['message|msg-one'], TRIGGER_CLAIMANT);
		expect(await runHello('wf-reoffer-2')).toEqual(['msg-hello']);
		expect(offers).toEqual([]);
		// Asking took nothing: the record still says no run claimed it as an answer.
		expect(await claimed(context, ['answer|msg-one'], TRIGGER_CLAIMANT)).toEqual(
			new Set(['answer|msg-one']),
		);
	});

	it('its offer ended (settled): not offered again', async () => {
		const context = firstStepContext('wf-reoffer-3', helloRun(), taken);
		await claimed(
			context,
			['message|msg-one', 'answer|msg-one', 'settled|msg-one'],
			TRIGGER_CLAIMANT,
		);
		expect(await runHello('wf-reoffer-3')).toEqual(['msg-hello']);
		expect(offers).toEqual([]);
	});
});

/*
 * Review s6, S6-5's class: the earlier answer offered again ends by the one rule of a first offer
 * (answerPass.ts: rest). Not taken, it runs once as an ordinary message in this run, an item after
 * the next message's (whose first item a node acting on the first item answers), marked caught_up;
 * taken, or possibly taken (a time-out, R43f-1), it runs nowhere.
 */
describe('an earlier answer offered again and not taken runs once as a message (S6-5)', () => {
	it('404 (the execution is gone): the "1" runs after "hello", a caught-up item of its own', async () => {
		await claimedAsAnswers('wf-s65-404', ['msg-one']);
		const gone: Link = async () => ({ statusCode: 404, body: { message: 'not registered' } });
		const items = await helloStep('wf-s65-404', helloRun(), inTurn(gone));
		expect(offers.map((entry) => entry.ids)).toEqual([['msg-one']]);
		expect(items.map((item) => item.json.message_id)).toEqual(['msg-hello', 'msg-one']);
		const one = items[1].json;
		expect(one).toMatchObject({
			event_id: 'evt_caught_up:msg-one',
			event_type: 'message.received',
			conversation_id: 'conv-1',
			text: '1',
			sender: { phone: '447700900123', name: 'Bob' },
			waiting_question: null,
			caught_up: {
				reason: 'answer not taken by its Send and Wait question',
				age_seconds: 90,
				previous_message_id: null,
			},
		});
		expect(one.answer_offers).toBeUndefined();
		expect(items[0].json.answer_offers).toBeUndefined();
	});

	it('grouped: the "1" is a burst item of its own after "hello"\'s, shaped as it', async () => {
		await claimedAsAnswers('wf-s65-grouped', ['msg-one']);
		const items = await helloStep(
			'wf-s65-grouped',
			helloRun({ grouped: true }),
			inTurn(notWaiting),
		);
		expect(items.map((item) => item.json.message_ids)).toEqual([['msg-hello'], ['msg-one']]);
		expect(items[1].json).toMatchObject({ text: '1', burst: { message_count: 1 } });
	});

	it('the node\'s own 503 (it resumed nothing), then 409: the "1" runs once, after the second try', async () => {
		await claimedAsAnswers('wf-s65-503', ['msg-one']);
		const items = await helloStep('wf-s65-503', helloRun(), inTurn(nodeCouldNotRead, notWaiting));
		expect(offers.map((entry) => entry.at)).toEqual([6000, 9000]);
		expect(items.map((item) => item.json.message_id)).toEqual(['msg-hello', 'msg-one']);
	});

	it('409 at once, after the earlier run made a try of its own (n8n stopped during it): that try may have resumed the question, so the "1" counts as taken and runs nowhere', async () => {
		await claimedAsAnswers('wf-s65-tried', ['msg-one']);
		const context = firstStepContext('wf-s65-tried', helloRun(), taken);
		await claimed(context, ['try|msg-one|0'], TRIGGER_CLAIMANT);
		const items = await helloStep('wf-s65-tried', helloRun(), inTurn(notWaiting));
		expect(offers).toHaveLength(1);
		expect(items.map((item) => item.json.message_id)).toEqual(['msg-hello']);
	});

	it('a time-out, then 409: the first try may have resumed the question (R43f-1), so the "1" counts as taken and runs nowhere', async () => {
		await claimedAsAnswers('wf-s65-timeout', ['msg-one']);
		const items = await helloStep('wf-s65-timeout', helloRun(), inTurn(neverAnswers, notWaiting));
		expect(offers).toHaveLength(2);
		expect(items.map((item) => item.json.message_id)).toEqual(['msg-hello']);
	});

	it('two earlier answers offered at once, both refused: each runs once, in written order, after "hello"', async () => {
		await claimedAsAnswers('wf-s65-two', ['msg-one', 'msg-two']);
		const run = helloRun({ earlier: [TWO, ONE_EARLIER] });
		const items = await helloStep('wf-s65-two', run, inTurn(notWaiting));
		expect(offers.map((entry) => entry.ids).sort()).toEqual([['msg-one'], ['msg-two']]);
		expect(items.map((item) => item.json.message_id)).toEqual(['msg-hello', 'msg-one', 'msg-two']);
	});

	it('two earlier answers, one taken and one refused: only the refused one runs', async () => {
		await claimedAsAnswers('wf-s65-mixed', ['msg-one', 'msg-two']);
		const link: Link = async (options) =>
			options.url.includes('/8/') ? await notWaiting() : await taken(options);
		const items = await helloStep('wf-s65-mixed', helloRun({ earlier: [TWO, ONE_EARLIER] }), link);
		expect(items.map((item) => item.json.message_id)).toEqual(['msg-hello', 'msg-two']);
	});

	it('accepted: the question resumes once and the "1" runs nowhere, however many copies of the delivery run', async () => {
		await claimedAsAnswers('wf-s65-taken', ['msg-one']);
		const first = helloStep('wf-s65-taken', helloRun(), taken);
		const copy = helloStep('wf-s65-taken', helloRun(), taken);
		const ran = [...(await first), ...(await copy)].map((item) => item.json.message_id);
		expect(ran).toEqual(['msg-hello']);
		expect(offers.map((entry) => entry.ids)).toEqual([['msg-one']]);
	});

	it('refused, with a copy of the delivery: the "1" runs once in all', async () => {
		await claimedAsAnswers('wf-s65-copy', ['msg-one']);
		const first = helloStep('wf-s65-copy', helloRun(), inTurn(notWaiting));
		const copy = helloStep('wf-s65-copy', helloRun(), inTurn(notWaiting));
		const ran = [...(await first), ...(await copy)].map((item) => item.json.message_id);
		expect(ran).toEqual(['msg-hello', 'msg-one']);
		expect(offers).toHaveLength(1);
	});
});
