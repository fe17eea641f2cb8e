/**
 * Review s11b: n8n's own URL failing (ownUrl.ts), in the ownUrl family's counts. Each finding is
 * its shrunk case, held to the invariant it breaks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { installProcessedDataStore } from '../../../support/processedData';
import { plainCase } from './cases';
import { violations } from './invariants';
import { ProcessPool } from './processPool';
import { checkCase } from './property';
import { plannedMessages, type Case } from './scenario';
import { conversationOf } from './service';
import { installVirtualTime, uninstallVirtualTime } from './virtualTime';
import type { Outcome } from './world';

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
 * Holds since a delivery's asks end by ASKED_BY_MS (deliveryTiming.ts, answerRoute.ts `askBy`).
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

	it('S11b-1: the URL timing out, every delivery of the chat is settled', async () => {
		const found = await checkCase(blackholed, pool);
		expect(found.map((violation) => `${violation.rule}: ${violation.detail}`)).toEqual([]);
	});
});

/**
 * S11b-3 (ownUrl family, seed 1, case 459 of 3000; no URL fault in it): m1, a "2" answering q1,
 * its event lost. The delivered run of [m5 m6] takes over an offer of m1 no run ended and resumes q1
 * with it; the Catch-Up poll's later run then passes m1 on as a message too: m1 ran twice, once as
 * an answer ('oneRun', and 'wholeBurst' for the run of [m1] alone). Found only where lost events
 * meet the Catch-Up node and answers, which no family generated before ownUrl. Holds since a run
 * writes the claim of each message whose offer it took over (runClaim.ts takenOver).
 */
const answeredThenCaughtUp = JSON.parse(
	'{"phaseMs":996,"quietMs":2000,"longestMs":20000,"dedupe":true,"processes":1,"bursts":[{"person":0,"pauseMs":233328,"gapsMs":[],"offlineMs":0,"saveGapMs":1000},{"person":0,"pauseMs":202027,"gapsMs":[433,953,1523,102],"offlineMs":0,"saveGapMs":1000}],"saveJitterMs":[182,78,71,187,81,19],"delivery":{"shape":"prompt","lateMs":0,"trickleMs":20,"scatterMs":[123,78,5,75,266,200]},"lost":[0,2],"copies":[],"jitter":[8.63798757163538e-148,-7.993603057855184e-66,1.6282556346445145e-297,-5.44674808985887e-245,7.256362890908975e-52,-1.9593713079056452e-205,-8.385984544768187e-217,4.1242770425595113e-275],"route":[0,1,0,1,0,0,0],"readFaults":[],"readLatencyMs":66,"recordFails":[],"claimOutages":[],"ownMessages":[],"answers":{"n8nLine":1,"questions":[{"afterMessage":-1,"delayMs":2675},{"afterMessage":3,"delayMs":813}],"replies":[{"message":0,"text":"why?"},{"message":5,"text":"2","quotes":1},{"message":0,"text":"2","quotes":1}]},"catchUp":true,"stopsAfterRecording":[],"stops":[],"phone":{"skewMs":-250},"host":{"skewMs":-5879}}',
) as Case;

describe('review s11b: a lost answer resumed by a later run, then caught up by the poll', () => {
	it('S11b-3: m1 runs once (as the answer)', async () => {
		const found = await checkCase(answeredThenCaughtUp, pool);
		expect(found.map((violation) => `${violation.rule}: ${violation.detail}`)).toEqual([]);
	});
});

/**
 * S11f-1 (found by helper-66's ownUrl count, seed 11 case 784 of 1000; before this session's code
 * too): n8n's own URL timing out for 12 minutes, a lost "1" (m2) answering q2-1. The poll gave up
 * asking about [m2] and emitted it as an ordinary message, while, the URL back, the same run's item
 * [m3 m4 m5] offered m2 to q2-1 as an earlier answer, which took it: m2 ran as a message and
 * answered. Holds since a message an item's offer answers (or runs as its earlier answer) runs in
 * no other item of the run (answerPass.ts passAnswers `handled`).
 */
const givenUpAndOffered = JSON.parse(
	'{"phaseMs":997,"quietMs":3000,"longestMs":30000,"dedupe":true,"processes":1,"bursts":[{"person":0,"pauseMs":197765,"gapsMs":[],"offlineMs":0,"saveGapMs":1000},{"person":0,"pauseMs":196614,"gapsMs":[],"offlineMs":0,"saveGapMs":1000},{"person":0,"pauseMs":185003,"gapsMs":[866,1394],"offlineMs":0,"saveGapMs":20}],"saveJitterMs":[198,4,2,152,97],"delivery":{"shape":"prompt","lateMs":0,"trickleMs":1000,"scatterMs":[81,2,294,2,186]},"lost":[0,1],"copies":[],"jitter":[-0.19999999999999976,-1.0155871249996356e-175,3.615000657924447e-202,-4.077696059140858e-102,-8.4e-323,3.1259760785578176e-126,-7.796080394591415e-285,7e-323],"route":[0],"readFaults":[],"readLatencyMs":169,"recordFails":[],"claimOutages":[],"ownMessages":[],"answers":{"n8nLine":2,"questions":[{"afterMessage":4,"delayMs":1977},{"afterMessage":-1,"delayMs":2266}],"replies":[{"message":0,"text":"why?"},{"message":1,"text":"1","quotes":1}]},"catchUp":true,"ownUrl":{"kind":"timeout","window":{"afterMessage":3,"delayMs":109629,"forMs":716056}},"stopsAfterRecording":[],"stops":[],"phone":{"skewMs":-3},"host":{"skewMs":19669}}',
) as Case;

describe('review s11f: an answer given up on by the poll, offered by another item of its run', () => {
	it('S11f-1: m2 runs once (as the answer)', async () => {
		const found = await checkCase(givenUpAndOffered, pool);
		expect(found.filter((violation) => violation.rule !== 'unreachable')).toEqual([]);
	});
});

/**
 * The 'unreachable' limit (ownUrlRule.ts) names only an answer its run could not ask or offer about
 * through n8n's own URL, and a poll's run only once the chat's asks failed for 10 minutes: m1, a "1"
 * answering q1, ran as a message in a run recorded at 100 s.
 */
describe("review s11b: the limit of n8n's own URL failing is narrow", () => {
	const c: Case = { ...plainCase([]), ownUrl: { kind: 'refused' } };
	const messages = plannedMessages(c);
	const at = 100_000;
	const failed = (when: number, by: 'trigger' | 'poll' = 'trigger') => ({
		at: when,
		execution: 'exec1',
		by,
		probe: true,
		conversationId: conversationOf(0),
	});
	const outcome = (polled: boolean, failures: Outcome['ownUrlFailures']): Outcome => ({
		messages,
		own: [{ id: 'q1', person: 0, at: 0 }],
		runs: [{ process: 'p1', messageIds: ['m1'], passedOn: true, at, polled }],
		attempts: [],
		reads: [],
		unsettled: [],
		answeredUnrecorded: [],
		incarnations: 1,
		resumes: [],
		expected: new Map([['m1', 'q1']]),
		questionOf: new Map([['exec1', 'q1']]),
		statusLookups: 0,
		catchUp: { listings: 0, reads: 0, errors: [] },
		ownUrlFailures: failures,
	});
	/** The answer's rule: its run of m1 alone is then a burst's too ('wholeBurst'), unless excused. */
	const rulesOf = (found: ReturnType<typeof violations>) =>
		found.map((v) => v.rule).filter((rule) => rule !== 'wholeBurst');

	it("its delivery's ask failed just before its run: the limit", () => {
		expect(rulesOf(violations(c, outcome(false, [failed(at - 5000)])))).toEqual(['unreachable']);
	});

	it('no ask of its question failed: a broken answer', () => {
		expect(rulesOf(violations(c, outcome(false, [])))).toEqual(['answers']);
		expect(rulesOf(violations(c, outcome(false, [failed(at - 600_000)])))).toEqual(['answers']);
	});

	it("a poll's run: the limit only once the chat's asks failed at 2 polls over 10 minutes", () => {
		const early = [failed(at - 120_000, 'poll'), failed(at - 1000, 'poll')];
		expect(rulesOf(violations(c, outcome(true, early)))).toEqual(['answers']);
		const patient = [failed(at - 600_000, 'poll'), failed(at - 1000, 'poll')];
		expect(rulesOf(violations(c, outcome(true, patient)))).toEqual(['unreachable']);
	});
});
