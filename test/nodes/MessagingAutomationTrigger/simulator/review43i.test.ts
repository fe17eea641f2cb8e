/**
 * Issue 43, helper 43i: the answer an earlier run claimed and never settled because n8n stopped
 * during its offer after it had answered the run's delivery (the run's offer is tried for up to
 * 2.5 minutes). No retry of that delivery comes, so the next run that reads the chat (the person's
 * next message) offers it again, while its question still waits, through the same path as a
 * retry's run (answerReoffer.ts).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';

import { installProcessedDataStore } from '../../../support/processedData';
import { plainCase } from './cases';
import { violations } from './invariants';
import { ProcessPool } from './processPool';
import { installVirtualTime, uninstallVirtualTime } from './virtualTime';
import { runCase } from './world';

const pool = new ProcessPool();
beforeAll(() => {
	installProcessedDataStore();
	installVirtualTime();
});
afterAll(() => uninstallVirtualTime());

const single = (pauseMs: number) => ({
	person: 0,
	pauseMs,
	gapsMs: [],
	offlineMs: 0,
	saveGapMs: 0,
});

it('a "1" whose offer is undecided (the node cannot read the chat) when n8n stops, after n8n answered its delivery: the person\'s next message, a minute and a half later, offers it again and the question takes it', async () => {
	const c = plainCase([], {
		bursts: [single(6000), single(90_000)],
		saveJitterMs: [0, 0],
		delivery: { shape: 'prompt', lateMs: 0, trickleMs: 0, scatterMs: [0, 0] },
		// The trigger's read of the "1" succeeds; the node's reads for the offers at 0 and 3 s fail.
		readFaults: [undefined, ...Array.from({ length: 8 }, () => 503 as const)],
		answers: {
			n8nLine: 2,
			questions: [{ afterMessage: -1, delayMs: 2000 }],
			replies: [{ message: 0, text: '1' }],
		},
		// n8n stopped 20 s after the "1" was delivered: its run was recorded and its delivery answered.
		stops: [{ afterMessage: 0, delayMs: 20_000, process: 0 }],
	});
	await pool.nextCase();
	const outcome = await runCase(c, pool);
	const ran = outcome.runs.filter((run) => run.passedOn).flatMap((run) => run.messageIds);
	expect({
		ran,
		resumed: outcome.resumes.map((resume) => resume.messageId),
		// Each try the node could not decide cost its look-up: the reads rule is not this case's.
		violations: violations(c, outcome).filter((violation) => violation.rule !== 'reads'),
	}).toEqual({ ran: ['m2'], resumed: ['m1'], violations: [] });
});
