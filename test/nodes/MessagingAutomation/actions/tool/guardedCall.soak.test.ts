import { describe, expect, it } from 'vitest';

import { FAULTS } from '../../../../support/chaosProxy';
import {
	CLEAN,
	expectExactlyOnceUnderFaults,
	useChaosRun,
	useFastHarness,
} from './sendsUnderFaults';

/*
 * The long acceptance runs (`npm run test:soak`); guardedCall.test.ts and guardedCall.chaos.test.ts run
 * the same checks at a smaller size in `npm test`.
 */

describe('1,000 sends through a chaos proxy', () => {
	const SENDS = 1_000;
	const chaos = useChaosRun();

	it(`a quarter of all requests faulty: 0 duplicates, 0 lost, 0 false successes, 0 raw errors, 0 keys at the other port`, async () => {
		const { counts, dealt } = await chaos.run({
			sends: SENDS,
			faultRate: 0.25,
			seed: 20261123,
			from: 0,
		});
		expect(counts).toMatchObject(CLEAN);
		// The run really met every fault.
		for (const fault of FAULTS) expect(dealt[fault] ?? 0).toBeGreaterThan(10);
		expect(counts.succeeded).toBeGreaterThan(SENDS * 0.95);
	});
});

describe('200 sends under the sandbox faults', () => {
	const h = useFastHarness();

	it('end with exactly one message per item, each reported truthfully', async () => {
		await expectExactlyOnceUnderFaults(h, { sends: 200, rounds: 12 });
	});
});
