import type { IHttpRequestOptions } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { claimed } from '../../../../nodes/MessagingAutomationTrigger/run/claimStore';
import { claimRun } from '../../../../nodes/MessagingAutomationTrigger/run/runClaim';
import {
	firstStepContext,
	helloRun,
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

async function runHello(workflow: string) {
	const run = claimRun(firstStepContext(workflow, helloRun(), taken), TRIGGER_CLAIMANT, 1);
	await vi.runAllTimersAsync();
	return (await run).flat().map((item) => item.json.message_id);
}

useStoreOnFakeTimers(() => {
	offers.length = 0;
	started = Date.now();
});

describe('an earlier answer offered with the next message (answerReoffer.ts)', () => {
	it('claimed as an answer by a run that never ended its offer (n8n stopped): offered again 11 s on, taken, and "hello" runs', async () => {
		const context = firstStepContext('wf-reoffer-1', helloRun(), taken);
		await claimed(context, ['message|msg-one', 'answer|msg-one'], TRIGGER_CLAIMANT);
		expect(await runHello('wf-reoffer-1')).toEqual(['msg-hello']);
		expect(offers).toEqual([{ at: 11_000, ids: ['msg-one'] }]);
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
