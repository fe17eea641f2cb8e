import type { IHttpRequestOptions, INodeExecutionData } from 'n8n-workflow';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { claimRun } from '../../../../nodes/MessagingAutomationTrigger/run/runClaim';
import { clearProcessedData, installProcessedDataStore } from '../../../support/processedData';
import {
	chatMessage as message,
	firstStepContext,
	offeredIds,
	TRIGGER_CLAIMANT,
} from './firstStepContext';

/*
 * A burst with an answer in it is claimed in two steps (run/afterOffers.ts): the answer before its
 * offer, the burst's other messages once the offer ended. Here a run's first step is called as n8n
 * calls it, on n8n's processed-data store, with the question's link answered by hand, so that a
 * second run of the same burst can start while the first run's offer is still in flight. (n8n
 * stopped during the offer: the simulator's review43f.test.ts, R43f-5.)
 */

const LINK = 'http://n8n.test/webhook-waiting/7/node-1?q=k1&chat=1&signature=0';

const WHY = message('msg-why', 'why?', 1);
const ONE = message('msg-one', '1', 2);
const THANKS = message('msg-thanks', 'thanks', 3);

/** A grouped run's item; `offered`: the delivery found its question waiting, and offers the "1". */
function burstRun(messages: Array<typeof WHY>, offered: boolean): INodeExecutionData {
	const last = messages[messages.length - 1];
	return {
		json: {
			event_type: 'message.received',
			event_id: `evt-${last.id}`,
			conversation_id: 'conv-1',
			message_id: last.id,
			text: messages.map((entry) => entry.text).join('\n'),
			messages,
			message_ids: messages.map((entry) => entry.id),
			burst: { message_count: messages.length, closed_by: 'quiet' },
			...(offered
				? { answer_offers: [{ question_id: 'q-1', link: LINK, message_ids: [ONE.id] }] }
				: {}),
		},
	};
}

/** The question's answers to offers, given by each test when it chooses; the offers made, in order. */
const verdicts: Array<(answered: boolean) => void> = [];
const offers: string[] = [];

/** The question's answer to the offers: each waits for its verdict, given by the test. */
async function question(options: IHttpRequestOptions) {
	const ids = offeredIds(options);
	offers.push(ids.join(','));
	const answered = await new Promise<boolean>((resolve) => verdicts.push(resolve));
	return {
		statusCode: 200,
		body: answered ? { answered: true, messageId: ids[0] } : { answered: false },
	};
}

const run = async (item: INodeExecutionData) =>
	await claimRun(firstStepContext('wf-after-offers', item, question), TRIGGER_CLAIMANT, 1);

/** The first run of the burst, held at its offer: the offer is made, its verdict not yet in. */
async function offerInFlight(item: INodeExecutionData) {
	const first = run(item);
	await vi.waitFor(() => expect(verdicts).toHaveLength(1));
	// Wrapped: an async function returning the run's promise would wait for the run to end.
	return { first };
}

const passed = (outputs: INodeExecutionData[][]) =>
	outputs.flat().map((item) => ({
		ids: item.json.message_ids,
		ranBefore: (item.json.burst as { ran_before?: string[] }).ran_before,
		answered: (item.json.burst as { answered_message_ids?: string[] }).answered_message_ids,
	}));

beforeAll(() => installProcessedDataStore());
beforeEach(() => {
	clearProcessedData();
	verdicts.length = 0;
	offers.length = 0;
});

describe("a burst's messages besides its answers, claimed once the offers ended", () => {
	it('control: "why?" then "1", the question takes the "1": "why?" runs, and a copy after passes nothing', async () => {
		const { first } = await offerInFlight(burstRun([WHY, ONE], true));
		verdicts[0](true);
		expect(passed(await first)).toEqual([
			{ ids: [WHY.id], ranBefore: undefined, answered: [ONE.id] },
		]);
		expect(passed(await run(burstRun([WHY, ONE], false)))).toEqual([]);
		expect(offers).toEqual([ONE.id]);
	});

	it('a copy of the burst started while the offer is in flight (its question no longer waiting) runs "why?"; the first run, the "1" taken, passes nothing on', async () => {
		const { first } = await offerInFlight(burstRun([WHY, ONE], true));
		// Before the fix, "why?" was claimed with the "1", and the copy passed nothing either.
		expect(passed(await run(burstRun([WHY, ONE], false)))).toEqual([
			{ ids: [WHY.id], ranBefore: [ONE.id], answered: undefined },
		]);
		verdicts[0](true);
		expect(passed(await first)).toEqual([]);
		expect(offers).toEqual([ONE.id]);
	});

	it('the question does not take the "1": it runs in the first run, alone, the "why?" the copy ran named as run before', async () => {
		const { first } = await offerInFlight(burstRun([WHY, ONE], true));
		await run(burstRun([WHY, ONE], false));
		verdicts[0](false);
		expect(passed(await first)).toEqual([
			{ ids: [ONE.id], ranBefore: [WHY.id], answered: undefined },
		]);
	});

	it('the copy read before "thanks" was saved: the first run passes "thanks" on, naming the answer and what the copy ran', async () => {
		const { first } = await offerInFlight(burstRun([WHY, ONE, THANKS], true));
		expect(passed(await run(burstRun([WHY, ONE], false)))).toEqual([
			{ ids: [WHY.id], ranBefore: [ONE.id], answered: undefined },
		]);
		verdicts[0](true);
		expect(passed(await first)).toEqual([
			{ ids: [THANKS.id], ranBefore: [WHY.id], answered: [ONE.id] },
		]);
	});
});
