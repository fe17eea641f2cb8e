/**
 * Review s11b: n8n's own URL failing (ownUrl.ts), in the ownUrl family's counts. Each finding is
 * its shrunk case, held to the invariant it breaks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { installProcessedDataStore } from '../../../support/processedData';
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

const burst = (pauseMs: number, gapsMs: number[]) => ({
	person: 0,
	pauseMs,
	gapsMs,
	offlineMs: 0,
	saveGapMs: 100,
});

/**
 * S11b-1: a chat with a Send and Wait question waiting (q1, written after m1; no reply quotes it),
 * its first message's event lost, and n8n's own URL not answering at all (each request runs into
 * its 5 s time-out: a firewall dropping packets, a proxy that never answers). Each burst's
 * messages are possible answers (unquoted, after the newest question), so each delivery probes q1.
 */
const blackholed: Case = {
	phaseMs: 0,
	quietMs: 3000,
	longestMs: 20_000,
	dedupe: true,
	processes: 1,
	bursts: [
		burst(221_909, [869, 647, 396]),
		burst(201_181, [1671, 1303, 1479]),
		burst(230_663, [1784, 2278, 1071]),
	],
	saveJitterMs: Array.from({ length: 12 }, () => 0),
	delivery: {
		shape: 'prompt',
		lateMs: 0,
		trickleMs: 20,
		scatterMs: Array.from({ length: 12 }, () => 0),
	},
	lost: [0],
	copies: [],
	jitter: Array.from({ length: 8 }, () => 0),
	route: [0],
	readFaults: [],
	readLatencyMs: 5,
	recordFails: [],
	claimOutages: [],
	ownMessages: [],
	answers: { n8nLine: 1, questions: [{ afterMessage: 0, delayMs: 10 }], replies: [] },
	catchUp: true,
	ownUrl: { kind: 'timeout' },
	stopsAfterRecording: [],
	stops: [],
	phone: { skewMs: 0 },
	host: { skewMs: 0 },
};

describe("review s11b: n8n's own URL failing", () => {
	it('control: the same chat with the URL refusing at once: every invariant holds but the limit', async () => {
		const found = await checkCase({ ...blackholed, ownUrl: { kind: 'refused' } }, pool);
		expect(found.filter((violation) => violation.rule !== 'unreachable')).toEqual([]);
	});

	it.fails('S11b-1: the URL timing out, every delivery of the chat is settled', async () => {
		const found = await checkCase(blackholed, pool);
		expect(found.map((violation) => `${violation.rule}: ${violation.detail}`)).toEqual([]);
	});
});
