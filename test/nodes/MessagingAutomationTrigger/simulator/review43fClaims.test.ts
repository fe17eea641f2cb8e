import type { INodeExecutionData } from 'n8n-workflow';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { clearProcessedData, installProcessedDataStore } from '../../../support/processedData';
import { firstStepContext, offeredIds, TRIGGER_CLAIMANT } from '../run/firstStepContext';

/*
 * Review of issue-43f (branch review-43f): "one claim per answer" rests on n8n's processed-data
 * store. n8n's DeduplicationHelper (n8n/dist/deduplication/deduplication-helper.js, 2.40.7 and
 * 1.123.81) reads the workflow's record (findOne), then writes it back whole (update), with no
 * lock or transaction; test/support/processedData.ts keeps that read-await-write. claimStore.ts
 * makes one process's claims one after another (oneAtATime), but two processes share nothing but
 * the record. Each `it.fails` is a finding that fails on the code as merged in eb80d0d. In the
 * simulator's project: it loads the trigger's modules afresh, as processPool.ts does.
 */

type RunClaimModule = typeof import('../../../../nodes/MessagingAutomationTrigger/run/runClaim.js');

/** A worker's memory: the trigger's run code loaded afresh, as processPool.ts loads a process. */
async function workerProcess(): Promise<RunClaimModule> {
	vi.resetModules();
	return await import('../../../../nodes/MessagingAutomationTrigger/run/runClaim.js');
}

/** The run a webhook process started for the "1", its offer to the question's link found. */
const answerRun = (): INodeExecutionData => ({
	json: {
		event_type: 'message.received',
		event_id: 'evt-1',
		message_id: 'msg-1',
		conversation_id: 'conv-1',
		text: '1',
		answer_offers: [
			{
				question_id: 'q-1',
				link: 'http://n8n.test/webhook-waiting/7/node-1?q=k1&chat=1&signature=0',
				message_ids: ['msg-1'],
			},
		],
	},
});

/** Every offer any run made (n8n 1.x: each one that reaches a waiting webhook resumes it). */
const offers: string[] = [];

const runContext = (item: INodeExecutionData) =>
	firstStepContext('wf-review43f', item, async (options) => {
		const ids = offeredIds(options);
		offers.push(ids.join(','));
		return { statusCode: 200, body: { answered: true, messageId: ids[0] } };
	});

beforeAll(() => installProcessedDataStore());
beforeEach(() => {
	clearProcessedData();
	offers.length = 0;
});

describe('review 43f: one claim per answer across processes', () => {
	it('control: two runs of the "1" one after another, in two workers: offered once', async () => {
		const first = await workerProcess();
		const second = await workerProcess();
		await first.claimRun(runContext(answerRun()), TRIGGER_CLAIMANT, 1);
		await second.claimRun(runContext(answerRun()), TRIGGER_CLAIMANT, 1);
		expect(offers).toEqual(['msg-1']);
	});

	it.fails(
		'R43f-2: two runs of the "1" (a copy delivered to two webhook processes) claimed at the same moment in two workers: both find the claim new and both offer it, so n8n 1.x resumes the question twice',
		async () => {
			const first = await workerProcess();
			const second = await workerProcess();
			await Promise.all([
				first.claimRun(runContext(answerRun()), TRIGGER_CLAIMANT, 1),
				second.claimRun(runContext(answerRun()), TRIGGER_CLAIMANT, 1),
			]);
			expect(offers).toEqual(['msg-1']);
		},
	);
});
