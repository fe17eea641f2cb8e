/**
 * Review 4 (branch review-4, on int-43c): the carried-delivery rule (a carried delivery answered
 * 2xx only once a recorded run holds its message; with none recorded by its deadline it starts the
 * burst's run itself) as an attacker sees it. Each finding is `it.fails` while it breaks what the
 * test asserts, each with a control that holds. R4-2 is fixed: a delivered run's claim waits out
 * a store fault (claimStore.ts), and past that a run a carried delivery started fails rather than
 * going on (unclaimedRun.ts).
 */
import { DataDeduplicationService } from 'n8n-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import {
	CLAIM_RECHECKS_MS,
	CLAIM_WAITS_MS,
} from '../../../../nodes/MessagingAutomationTrigger/run/claimStore';
import { installProcessedDataStore } from '../../../support/processedData';
import { plainCase } from './cases';
import { violations } from './invariants';
import { ProcessPool } from './processPool';
import type { Case } from './scenario';
import { installVirtualTime, uninstallVirtualTime } from './virtualTime';
import { runCase, type Outcome } from './world';

const pool = new ProcessPool();
beforeAll(() => {
	installProcessedDataStore();
	installVirtualTime();
});
afterAll(() => uninstallVirtualTime());
afterEach(() => vi.restoreAllMocks());

async function outcomeOf(c: Case): Promise<Outcome> {
	await pool.nextCase();
	return await runCase(c, pool);
}

const said = (c: Case, outcome: Outcome) =>
	violations(c, outcome)
		.map((violation) => `${violation.rule}: ${violation.detail}`)
		.join('\n');

/** First attempts answered 503, and runs that passed nothing on (empty executions). */
const handedBack = (outcome: Outcome) =>
	outcome.attempts.filter((attempt) => attempt.attempt === 1 && attempt.status === 503).length;
const emptyRuns = (outcome: Outcome) => outcome.runs.filter((run) => !run.passedOn).length;

/**
 * Seven messages typed 3 s apart (18 s, an ordinary person writing in short lines), quiet window
 * 5 s (the default), Longest Wait 60 s, delivered at once, nothing failing, one or two processes.
 */
const typedOver18s = (processes: 1 | 2): Case =>
	plainCase([3000, 3000, 3000, 3000, 3000, 3000], {
		longestMs: 60_000,
		processes,
		route: processes === 2 ? [0, 1] : [0],
	});

/** Three messages typed 1 s apart: the burst closes inside every delivery's 8.5 s. */
const typedOver2s = plainCase([1000, 1000]);

/**
 * n8n's processed-data store, each call failing (SQLITE_BUSY) when `locked` says so for the claim it
 * belongs to, numbered from 1 (a retry of a failed claim is a claim of its own): a run's second
 * writes of what a claim recorded, CLAIM_RECHECKS_MS after it (claimStore.ts), take no number.
 */
function lockStore(locked: (claim: number) => boolean): void {
	const store = DataDeduplicationService.getInstance();
	const claim = store.checkProcessedAndRecord.bind(store);
	const recordedAt = new Map<string, number>();
	let claims = 0;
	vi.spyOn(store, 'checkProcessedAndRecord').mockImplementation(async (...args) => {
		const items = args[0].map(String).join(' ');
		const since = performance.now() - (recordedAt.get(items) ?? -Infinity);
		const again = CLAIM_RECHECKS_MS.includes(since);
		if (!again) claims++;
		if (locked(claims)) throw new Error('SQLITE_BUSY: database is locked');
		const output = await claim(...args);
		if (!again) recordedAt.set(items, performance.now());
		return output;
	});
}

/** The store locked for the claims numbered `locked` (1: the first). */
const lockStoreAt = (...locked: number[]) => {
	let last = 0;
	lockStore((claim) => {
		const fails = claim !== last && locked.includes(claim);
		last = claim;
		return fails;
	});
};

/** The store locked from the claim numbered `first` on, for `ms` of virtual time. */
function lockStoreFrom(first: number, ms: number): void {
	let until: number | undefined;
	lockStore((claim) => {
		if (claim === first && until === undefined) until = performance.now() + ms;
		return until !== undefined && performance.now() < until;
	});
}

/** Longer than a delivered run's claim waits for the store (25.5 s). */
const PAST_WAITS_MS = CLAIM_WAITS_MS.reduce((sum, wait) => sum + wait, 0) + 1000;

describe('review 4: carried deliveries', () => {
	it('control: a burst typed over 2 s: no delivery goes back, no empty execution, one run', async () => {
		const outcome = await outcomeOf(typedOver2s);
		expect(said(typedOver2s, outcome)).toBe('');
		expect([handedBack(outcome), emptyRuns(outcome)]).toEqual([0, 0]);
	});

	it.fails(
		"R4-1 (cost): a burst typed over 18 s (7 lines 3 s apart, quiet 5 s) sends 5 of its 7 first deliveries back (503), not one, and each retry is held up to 8 s and then starts a run of its own that passes nothing on: 2 empty executions with one process, 4 with two (6 of 7 back); every invariant holds. On main before the merge (d71863b): no 503, no empty execution. The retry's process knew (one process) that the run holding it was recorded, but only while the desk lived",
		async () => {
			const one = await outcomeOf(typedOver18s(1));
			const two = await outcomeOf(typedOver18s(2));
			console.log(
				`R4-1: one process ${handedBack(one)} × 503, ${emptyRuns(one)} empty; two ${handedBack(two)} × 503, ${emptyRuns(two)} empty`,
			);
			expect(said(typedOver18s(1), one)).toBe('');
			// The cost the change states: the first delivery back once, plus one empty execution, at most.
			for (const outcome of [one, two]) {
				expect(handedBack(outcome)).toBeLessThanOrEqual(1);
				expect(emptyRuns(outcome)).toBeLessThanOrEqual(1);
			}
		},
	);

	it("R4-2 (a message ran twice, fixed): the burst of R4-1, one process, n8n's processed-data store locked for two claim attempts just as the first empty run's retry claims: that run waited for the store (claimStore.ts: CLAIM_WAITS_MS) and passes nothing on; before, it went on whole (twice beats never) and the burst ran a second time", async () => {
		lockStoreAt(2, 3);
		const c = typedOver18s(1);
		const outcome = await outcomeOf(c);
		expect(said(c, outcome)).toBe('');
	});

	it("R4-2, two webhook processes (queue mode, fixed): three lines typed 1 s apart, delivered at once, m2 to the other process, which starts the burst's run itself at m2's 8.5 s; the store locked for two attempts at that run's claim: the burst runs once", async () => {
		lockStoreAt(2, 3);
		const c = plainCase([1000, 1000], { processes: 2, route: [0, 1] });
		const outcome = await outcomeOf(c);
		expect(said(c, outcome)).toBe('');
	});

	it("R4-2's class past the claim's waits: the store locked for 26.5 s from a carried delivery's run's claim on, past its 9 attempts (one process: a hand-back's retry; two: m2's own start): that execution fails, naming the messages, and the burst runs once", async () => {
		for (const c of [typedOver18s(1), plainCase([1000, 1000], { processes: 2, route: [0, 1] })]) {
			vi.restoreAllMocks();
			lockStoreFrom(2, PAST_WAITS_MS);
			const outcome = await outcomeOf(c);
			expect(said(c, outcome)).toBe('');
			const failed = outcome.runs.filter((run) => run.failed !== undefined);
			expect(failed).toHaveLength(1);
			expect(failed[0].failed).toMatch(/^Not run: messages m1, m2, m3/);
		}
	});

	it("control past the claim's waits: the store locked for 26.5 s from the burst's own run's claim on (its last message's delivery): it goes on whole (twice beats never), once", async () => {
		lockStoreFrom(1, PAST_WAITS_MS);
		const outcome = await outcomeOf(typedOver2s);
		expect(said(typedOver2s, outcome)).toBe('');
		expect(outcome.runs.filter((run) => run.passedOn)).toHaveLength(1);
	});

	it("control: the store locked at the burst's only claim (nothing handed back): it runs once", async () => {
		lockStoreAt(1, 2);
		const outcome = await outcomeOf(typedOver2s);
		expect(said(typedOver2s, outcome)).toBe('');
	});
});
