import { createHash } from 'node:crypto';

import type { INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import type { AnswerOffer } from '../../../../nodes/MessagingAutomationTrigger/answers/answerRoute';
import { CLAIM_RECHECKS_MS } from '../../../../nodes/MessagingAutomationTrigger/run/claimStore';
import { turnItemJson } from '../../../../nodes/MessagingAutomationTrigger/run/output';
import { claimRun } from '../../../../nodes/MessagingAutomationTrigger/run/runClaim';
import {
	firstStepContext,
	helloRun,
	type Link,
	offeredIds,
	TRIGGER_CLAIMANT,
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
 * offers it again either: its offer's end is recorded.
 */

const offers: string[][] = [];
const LINK = 'http://n8n.test/webhook-waiting/7/node-1?q=k1&chat=1&signature=0';
const ONE = (helloRun().json.answer_offers as AnswerOffer[])[0].earlier![0];

const records = (
	(globalThis as Record<symbol, unknown>)[
		Symbol.for('messaging-automation.test.processedData')
	] as { records: Map<string, string[]> }
).records;
const hashOf = (key: string) => createHash('md5').update(key).digest('base64');

/** The run of the "1" itself, its own first offer to question q-1. */
function oneRun(): INodeExecutionData {
	const json = turnItemJson(
		{
			id: 'evt-one',
			type: 'message.received',
			created_at: new Date(ONE.at + 200).toISOString(),
			api_version: '2026-01-01',
			account_id: 'acc-1',
			data: { message: ONE.message },
		},
		{
			run: true,
			waitingQuestion: null,
			answerOffers: [{ question_id: 'q-1', link: LINK, message_ids: ['msg-one'] }],
		},
	);
	return { json };
}

/**
 * The first try fails without a verdict (n8n's 502), the second gets the node's refusal. With
 * `resurrect`, during the second try another process's write of the record it read while the
 * run's stillOurs held its claim of `settled|msg-one` lands: the key is back.
 */
const failsThenRefuses =
	(workflow: string, resurrect: boolean): Link =>
	async (options) => {
		offers.push(offeredIds(options));
		if (offers.length === 1) return { statusCode: 502, body: { message: 'Bad Gateway' } };
		if (resurrect) {
			const key = `${workflow}/`;
			records.set(key, [
				...(records.get(key) ?? []),
				hashOf(`${TRIGGER_CLAIMANT.trigger}|settled|msg-one`),
			]);
		}
		return { statusCode: 200, body: { answered: false } };
	};

async function step(workflow: string, item: INodeExecutionData, link: Link) {
	const run = claimRun(firstStepContext(workflow, item, link), TRIGGER_CLAIMANT, 1);
	await vi.runAllTimersAsync();
	const ran = (await run).flat().map((entry) => String(entry.json.message_id));
	await vi.advanceTimersByTimeAsync(Math.max(...CLAIM_RECHECKS_MS));
	return ran;
}

useStoreOnFakeTimers(() => {
	offers.length = 0;
});

describe("review s7b: the earlier run's own question between tries read as a take-over", () => {
	it('control: the "1" refused at its second try runs once, as a message', async () => {
		expect(await step('wf-s7b-6c', oneRun(), failsThenRefuses('wf-s7b-6c', false))).toEqual([
			'msg-one',
		]);
		expect(offers).toHaveLength(2);
	});

	// S7-6: settle's claim not fresh, with no later run holding the offer: the "1" runs nowhere.
	it.fails(
		'S7-6: the "1" refused at its second try runs once when another process\'s write put back the run\'s own stillOurs claim of its offer\'s end',
		async () => {
			const workflow = 'wf-s7b-6';
			expect(await step(workflow, oneRun(), failsThenRefuses(workflow, true))).toEqual([
				'msg-one',
			]);
		},
	);
});
