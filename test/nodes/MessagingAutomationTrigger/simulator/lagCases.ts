/**
 * Findings of a phone behind by less than a quiet window, as fixed cases (findings.test.ts), in a
 * file of their own since cases.ts is long already.
 */
import { plainCase } from './cases';
import type { Case } from './scenario';

/**
 * S9-1 (seed 20261502, everything, shrunk): a phone 1.964 s behind, [m2 … m6] typed 3.1, 0.3, 4.2
 * and 2 s apart, the account writing as m5 is typed (its message stamped 1 ms after m6's timestamp,
 * saved 1.963 s before m6). m3's late delivery reads at once, 1.33 s after the account's message:
 * m6 is not saved yet, so that read shows the account's message right after m5.
 */
const s91: Case = plainCase([], {
	phaseMs: 53,
	longestMs: 20_000,
	dedupe: false,
	bursts: [
		{ person: 1, pauseMs: 46_153, gapsMs: [], offlineMs: 39_882, saveGapMs: 300 },
		{ person: 1, pauseMs: 27_075, gapsMs: [3131, 337, 4165, 1963], offlineMs: 0, saveGapMs: 100 },
	],
	saveJitterMs: [0, 0, 0, 196, 0, 0],
	delivery: {
		shape: 'prompt',
		lateMs: 0,
		trickleMs: 20,
		scatterMs: [0, 9610, 5741, 0, 1980, 0],
	},
	lost: [],
	jitter: Array(8).fill(0),
	readLatencyMs: 5,
	recordFails: [0],
	claimOutages: [],
	ownMessages: [{ afterMessage: 3, delayMs: 10, nearNextMs: 0 }],
	phone: { skewMs: -1964, step: { atMessage: 0, ms: 0 } },
});

export const LAG_FINDING_CASES: Record<string, Array<{ name: string; case: Case }>> = {
	'S9-1': [
		{
			name: "a phone 1.964 s behind, the account writing 1 ms (by the timestamps) after m6: m6's delivery starts [m2 … m6], n8n fails to record it (500), and m5's delivery, from a read made before m6 was saved, ran [m2 m3 m4 m5], then m6's retry [m6]; now the burst waits the phone's whole lag past the account's message and runs whole once (seed 20261502, everything)",
			case: s91,
		},
	],
};
