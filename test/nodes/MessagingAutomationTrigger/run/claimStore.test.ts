import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import {
	claimed,
	CLAIM_RECHECK_MS,
} from '../../../../nodes/MessagingAutomationTrigger/run/claimStore';
import {
	clearProcessedData,
	installProcessedDataStore,
	overwriteClaimOf,
} from '../../../support/processedData';
import { firstStepContext, TRIGGER_CLAIMANT } from './firstStepContext';

/*
 * n8n's store reads the trigger's record and writes it back whole, without a lock: a queue-mode
 * worker that read it before a run's claim and writes after it drops that claim. The claim writes
 * its messages again CLAIM_RECHECK_MS later, so the record still shows what ran (a later catch-up
 * trusts it: review s6, S6-1).
 */
const context = () =>
	firstStepContext('wf-claims', { json: {} }, async () => ({ statusCode: 200, body: {} }));
const POLLED = { ...TRIGGER_CLAIMANT, polled: true };

/** A run's claim, then the time of its second write. */
async function runClaims(keys: string[]) {
	const fresh = (await claimed(context(), keys, TRIGGER_CLAIMANT))!;
	await vi.advanceTimersByTimeAsync(CLAIM_RECHECK_MS);
	return fresh;
}

beforeAll(() => installProcessedDataStore());
beforeEach(() => {
	clearProcessedData();
	vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('a claim another process dropped', () => {
	it.each(['message', 'event'])(
		'is written again (%s): a later claim of the same key finds it taken',
		async (kind) => {
			const drop = overwriteClaimOf(`${kind}|m1`);
			expect([...(await runClaims([`${kind}|m1`]))]).toEqual([`${kind}|m1`]);
			expect(drop.restored()).toBe(true);
			expect([...(await claimed(context(), [`${kind}|m1`], POLLED))!]).toEqual([]);
		},
	);

	it('stays dropped until its second write: the record does not show it in between', async () => {
		const drop = overwriteClaimOf('message|m1');
		await claimed(context(), ['message|m1'], TRIGGER_CLAIMANT);
		await vi.advanceTimersByTimeAsync(CLAIM_RECHECK_MS / 2);
		expect(drop.restored()).toBe(false);
		await vi.advanceTimersByTimeAsync(CLAIM_RECHECK_MS / 2);
		expect(drop.restored()).toBe(true);
	});

	it('control: a claim nothing dropped is taken once', async () => {
		expect([...(await runClaims(['message|m1']))]).toEqual(['message|m1']);
		expect([...(await claimed(context(), ['message|m1'], POLLED))!]).toEqual([]);
	});

	it.each(['answer', 'settled'])(
		'a %s key is not written again: a run that asked by claiming it takes it back',
		async (kind) => {
			overwriteClaimOf(`${kind}|m1`);
			await runClaims([`${kind}|m1`]);
			expect([...(await claimed(context(), [`${kind}|m1`], POLLED))!]).toEqual([`${kind}|m1`]);
		},
	);
});
