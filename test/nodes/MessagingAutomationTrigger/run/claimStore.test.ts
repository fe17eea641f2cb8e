import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import {
	claimed,
	CLAIM_RECHECKS_MS,
	takeBack,
} from '../../../../nodes/MessagingAutomationTrigger/run/claimStore';
import {
	clearProcessedData,
	installProcessedDataStore,
	overwriteClaimOf,
} from '../../../support/processedData';
import { firstStepContext, TRIGGER_CLAIMANT } from './firstStepContext';

/*
 * n8n's store reads the trigger's record and writes it back whole, without a lock: a queue-mode
 * worker that read it before a run's claim and writes after it drops that claim. The claim is
 * written again at CLAIM_RECHECKS_MS, so the record still shows it (a later catch-up or offer
 * trusts it: review s6, S6-1; review s7, S7-1), unless its run took it back.
 */
const context = () =>
	firstStepContext('wf-claims', { json: {} }, async () => ({ statusCode: 200, body: {} }));
const POLLED = { ...TRIGGER_CLAIMANT, polled: true };
const [FIRST, LAST] = [CLAIM_RECHECKS_MS[0], CLAIM_RECHECKS_MS[CLAIM_RECHECKS_MS.length - 1]];

/** A run's claim, then the time of its writes again. */
async function runClaims(keys: string[]) {
	const fresh = (await claimed(context(), keys, TRIGGER_CLAIMANT))!;
	await vi.advanceTimersByTimeAsync(LAST);
	return fresh;
}

beforeAll(() => installProcessedDataStore());
beforeEach(() => {
	clearProcessedData();
	vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('a claim another process dropped', () => {
	it.each(['message', 'event', 'answer', 'settled'])(
		'is written again (%s): a later claim of the same key finds it taken',
		async (kind) => {
			const drop = overwriteClaimOf(`${kind}|m1`);
			expect([...(await runClaims([`${kind}|m1`]))]).toEqual([`${kind}|m1`]);
			expect(drop.restored()).toBe(true);
			expect([...(await claimed(context(), [`${kind}|m1`], POLLED))!]).toEqual([]);
		},
	);

	it('stays dropped until its first write again: the record does not show it in between', async () => {
		const drop = overwriteClaimOf('message|m1');
		await claimed(context(), ['message|m1'], TRIGGER_CLAIMANT);
		await vi.advanceTimersByTimeAsync(FIRST / 2);
		expect(drop.restored()).toBe(false);
		await vi.advanceTimersByTimeAsync(FIRST / 2);
		expect(drop.restored()).toBe(true);
	});

	it('control: a claim nothing dropped is taken once', async () => {
		expect([...(await runClaims(['message|m1']))]).toEqual(['message|m1']);
		expect([...(await claimed(context(), ['message|m1'], POLLED))!]).toEqual([]);
	});

	it('a claim its run took back (it only asked) is not written again', async () => {
		const run = context();
		await claimed(run, ['settled|m1'], TRIGGER_CLAIMANT);
		await takeBack(run, ['settled|m1'], TRIGGER_CLAIMANT);
		await vi.advanceTimersByTimeAsync(LAST);
		expect([...(await claimed(context(), ['settled|m1'], POLLED))!]).toEqual(['settled|m1']);
	});

	it("another run's takeBack of the same key leaves the claim's writes again", async () => {
		const drop = overwriteClaimOf('answer|m1');
		await claimed(context(), ['answer|m1'], TRIGGER_CLAIMANT);
		// Another run of this process asks while the key is dropped, and takes its claim back.
		await vi.advanceTimersByTimeAsync(0);
		const asking = context();
		await claimed(asking, ['answer|m1'], TRIGGER_CLAIMANT);
		await takeBack(asking, ['answer|m1'], TRIGGER_CLAIMANT);
		await vi.advanceTimersByTimeAsync(LAST);
		expect(drop.restored()).toBe(true);
	});
});
