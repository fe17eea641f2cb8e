/**
 * Review of issue 43d/43e's fixes (branch review-43de): cases found on the code under review, as
 * `it.fails` while they break an invariant, each with a control that holds. R43de-5 holds beside
 * R43b-1's catch-up lag (review43b.test.ts) since a carried delivery waits for its recorded run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { installProcessedDataStore } from '../../../support/processedData';
import { plainCase } from './cases';
import { ProcessPool } from './processPool';
import { checkCase } from './property';
import type { Case } from './scenario';
import { installVirtualTime, uninstallVirtualTime } from './virtualTime';

const pool = new ProcessPool();
beforeAll(() => {
	installProcessedDataStore();
	installVirtualTime();
});
afterAll(() => uninstallVirtualTime());

/** A burst of three typed 0.3 s apart on a phone whose clock runs `aheadMs` ahead, delivered at once. */
const phoneAhead = (aheadMs: number): Case => plainCase([300, 300], { phone: { skewMs: aheadMs } });

/**
 * Two messages typed 0.3 s apart on a phone whose messages reach the service 3 s after they are
 * typed (a slow network: each is saved, stamped with its typing time, 3 s late), quiet window 2 s;
 * with `accountReplies`, the account writes 0.1 s after the second was typed, so both come before
 * its message in the chat and make one burst.
 */
const slowNetwork = (accountReplies: boolean): Case =>
	plainCase([300], {
		quietMs: 2000,
		saveJitterMs: [3000, 3000],
		ownMessages: accountReplies ? [{ afterMessage: 1, delayMs: 100 }] : [],
	});

/**
 * Quiet window 12 s (over the hold), one process, nothing failing, clocks right (found by
 * late + longQuiet together, which no family combines): a burst of five typed 5-10 s apart on a
 * phone offline for 146 s, uploaded 1 s a message, between a prompt burst before and an upload of
 * two after.
 */
const LONG_QUIET_UPLOAD: Case = plainCase([3857], {
	quietMs: 12_000,
	longestMs: 20_000,
	bursts: [
		{ person: 0, pauseMs: 62_532, gapsMs: [3857], offlineMs: 0, saveGapMs: 20 },
		{
			person: 0,
			pauseMs: 38_761,
			gapsMs: [9823, 5119, 9084, 6327],
			offlineMs: 145_627,
			saveGapMs: 1000,
		},
		{ person: 0, pauseMs: 61_362, gapsMs: [10_381], offlineMs: 37_815, saveGapMs: 1000 },
	],
	saveJitterMs: Array(9).fill(0),
	delivery: {
		shape: 'prompt',
		lateMs: 0,
		trickleMs: 20,
		scatterMs: [0, 0, 709, 0, 0, 0, 0, 2471, 0],
	},
	readLatencyMs: 5,
});

const said = (found: Awaited<ReturnType<typeof checkCase>>) =>
	found.map((violation) => `${violation.rule}: ${violation.detail}`).join('\n');

describe('review 43de', () => {
	it('control: a phone 160 s ahead: every delivery goes back until the service passes its timestamps, then the burst runs once, whole', async () => {
		const found = await checkCase(phoneAhead(160_000), pool);
		expect(found, said(found)).toEqual([]);
	});

	it('control: the slow phone alone, nobody replying: one run [m1 m2]', async () => {
		const found = await checkCase(slowNetwork(false), pool);
		expect(found, said(found)).toEqual([]);
	});

	it("R43de-4 (regression of K/A, 43e; fixed with finding C): the account replies between the slow phone's message and its save: the phone's lag (3 s) is over the quiet window, so the burst the account's message closes waits, as an upload, a quiet window past its latest message saved (uploadWindow.ts), and m2, saved 0.3 s after m1, joins it; before, it was read past the account's message plus the lag capped at 1 s, and [m1] ran alone, then [m2]", async () => {
		const found = await checkCase(slowNetwork(true), pool);
		console.log(said(found));
		expect(found, said(found)).toEqual([]);
	});

	it('R43de-5 (a regression of R43b-1 (the catch-up phone lag) until a carried delivery waited for its recorded run): a quiet window over the hold and a burst uploaded late: m3, m4 and m5 never run, though their deliveries were answered 200', async () => {
		const found = await checkCase(LONG_QUIET_UPLOAD, pool);
		console.log(said(found));
		expect(found, said(found)).toEqual([]);
	});

	it.fails(
		"R43de-1: a phone 5 min ahead (a clock set fast): no read is due before a held message's timestamp and none settles it, so each delivery goes back until its third attempt gives up (2.5 min) and runs alone: [m1], [m2], [m3]",
		async () => {
			const found = await checkCase(phoneAhead(300_000), pool);
			console.log(said(found));
			expect(found, said(found)).toEqual([]);
		},
	);
});
