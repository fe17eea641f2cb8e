/**
 * Review of issue 43's latest fixes (gap E, gap C / finding 8, finding 5): cases the simulator
 * found on the code under review (branch review-43b, as `it.fails`). R43b-2 holds since its fix
 * (handBacks.ts); R43b-1 since the catch-up window adds the delivered message's phone lag, which
 * holds beside R43de-5 (review43de.test.ts) once a carried delivery waits for the run that holds it.
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

/**
 * Family `late`, seed 9431, shrunk: one process, nothing failing. A phone 33 s behind writes a
 * burst of four offline; its later burst [m5 m6] is saved first (151.2 s), and the read for it
 * (asOf 151.4 s) shows m1, saved that moment, stamped 183 s before: catch-up (catchUp.ts, issue
 * 45) takes [m1] for a burst closed 3 min ago by the phone's timestamps and runs it, while m2-m4
 * are still being uploaded; their deliveries run [m2 m3 m4].
 */
const SPLIT_UPLOAD: Case = plainCase([474, 742, 1105], {
	quietMs: 3000,
	longestMs: 20_000,
	bursts: [
		{ person: 0, pauseMs: 44_033, gapsMs: [474, 742, 1105], offlineMs: 148_080, saveGapMs: 300 },
		{ person: 0, pauseMs: 31_097, gapsMs: [1572], offlineMs: 92_821, saveGapMs: 100 },
	],
	saveJitterMs: [0, 0, 0, 112, 0, 0],
	delivery: { shape: 'trickle', lateMs: 22_282, trickleMs: 20, scatterMs: [0, 0, 0, 0, 0, 0] },
	jitter: [0],
	readLatencyMs: 208,
	phone: { skewMs: -32_793 },
});

/**
 * Two people write at once while the service's reads fail (503) for the whole case: each
 * delivery goes back at its deadline. The two held at once in one process each save their own
 * copy of static data, the last save wins, so one event's hand-back count is lost; the other
 * process never saw it in memory.
 */
const outage = (processes: 1 | 2): Case =>
	plainCase([], {
		processes,
		route: [0, 0, 1, 1],
		bursts: [
			{ person: 0, pauseMs: 6000, gapsMs: [], offlineMs: 0, saveGapMs: 0 },
			{ person: 1, pauseMs: 5500, gapsMs: [], offlineMs: 0, saveGapMs: 0 },
		],
		saveJitterMs: [0, 0],
		delivery: { shape: 'prompt', lateMs: 0, trickleMs: 0, scatterMs: [0, 0] },
		readFaults: Array.from({ length: 400 }, () => 503 as const),
	});

describe('review 43b', () => {
	it('control: one process, a read outage: each message gives up at its third attempt and runs once', async () => {
		expect(await checkCase(outage(1), pool)).toEqual([]);
	});

	it("R43b-2 (finding 5): two processes, a read outage, two people at once: one event's hand-backs are counted in the other process's memory and its static-data count is overwritten by the concurrent delivery's save, so its third (and fourth, 13 min) attempt goes back again; it has not run 20 min later", async () => {
		const found = await checkCase(outage(2), pool);
		console.log(found.map((v) => `${v.rule}: ${v.detail}`).join('\n'));
		expect(found).toEqual([]);
	});

	it('R43b-1 (gap C x issue 45 catch-up): a burst uploaded late by a phone 33 s behind is caught up by the read of a later burst while its upload is under way: [m1] runs alone, then [m2 m3 m4]', async () => {
		const found = await checkCase(SPLIT_UPLOAD, pool);
		console.log(found.map((v) => `${v.rule}: ${v.detail}`).join('\n'));
		expect(found).toEqual([]);
	});
});
