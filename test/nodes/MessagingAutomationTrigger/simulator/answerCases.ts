/**
 * Fixed cases of answers with n8n stopping (family answerStops), kept apart from cases.ts. Each
 * has the Catch-Up node beside the trigger, as the family does (pollProcess.ts): no delivery comes
 * again, and its poll reads the chat once quiet, offers the answer again (chatCatchUp.ts), and
 * runs the burst's other messages (S8-1, fixed in 8799f22).
 */
import { plainCase } from './cases';
import type { Case } from './scenario';
import type { ReadFault } from './service';

/**
 * S8-1, the shrunk case of answerStops, seed 20261401: the "1" (m5) answers q2, the question
 * before it; the account asks q1 11 ms after it, which ends its burst. n8n records m5's run,
 * answers its delivery, and stops while the run's first step offers the "1" (after the run of m6,
 * 0.6 s later, is recorded and before it is answered). No delivery of m5 comes again, and m6's
 * run, written less than a minute after it, does not offer it again (earlierAnswer.ts): the "1"
 * neither resumes q2 nor runs.
 */
const STOPPED_DURING_OFFER: Case = plainCase([1637, 1409, 2518], {
	quietMs: 3000,
	longestMs: 20_000,
	bursts: [
		{ person: 0, pauseMs: 4009, gapsMs: [1637, 1409, 2518], offlineMs: 0, saveGapMs: 1000 },
		{ person: 0, pauseMs: 11_306, gapsMs: [573], offlineMs: 0, saveGapMs: 1000 },
	],
	saveJitterMs: [0, 0, 0, 0, 0, 0],
	delivery: { shape: 'prompt', lateMs: 0, trickleMs: 20, scatterMs: [0, 0, 0, 0, 0, 0] },
	readLatencyMs: 5,
	answers: {
		n8nLine: 1,
		questions: [
			{ afterMessage: 4, delayMs: 11 },
			{ afterMessage: 0, delayMs: 10 },
		],
		replies: [{ message: 4, text: '1' }],
	},
	stopsAfterRecording: [2],
	phone: { skewMs: 11 },
	catchUp: true,
});

/**
 * S8-1 with the burst's other messages, the shrunk case of answerStops, seed 7: the "1" then three
 * more messages in one burst, answering q1; the Send and Wait node's reads fail (429), so the run
 * offers the "1" again 3 s on, and n8n stops 8.4 s after the "1" was written, every delivery
 * answered. The others are claimed only once the offer ended (afterOffers.ts), so none of the four
 * runs, and no delivery comes again.
 */
const STOPPED_DURING_RETRIED_OFFER: Case = {
	...STOPPED_DURING_OFFER,
	bursts: [{ person: 0, pauseMs: 34_391, gapsMs: [784, 2655, 1678], offlineMs: 0, saveGapMs: 100 }],
	saveJitterMs: [0, 0, 0, 0],
	delivery: { shape: 'prompt', lateMs: 0, trickleMs: 20, scatterMs: [0, 0, 0, 0] },
	readFaults: [undefined, undefined, 429, 429, 429],
	answers: {
		n8nLine: 1,
		questions: [{ afterMessage: -1, delayMs: 10 }],
		replies: [{ message: 0, text: '1' }],
	},
	stopsAfterRecording: [],
	stops: [{ afterMessage: 0, delayMs: 8424, process: 0 }],
	phone: { skewMs: 0 },
};

/**
 * S8-1b: an offer taken over once is never taken over again. A "1" answering q1, then (62 s on) an
 * ordinary message, each to its own webhook process; the Send and Wait node cannot read the chat
 * (429) while either offers the "1". n8n records the "1"'s run in p1 and answers its delivery; the
 * run claims the "1" as an answer and offers it, and its tries fail (0 and 3 s on; the next comes
 * 33 s on, the last 153 s on). The next message's run in p2 carries the "1", a minute old
 * (earlierAnswer.ts), finds the offer unended and the question waiting, and takes it over
 * (answerReoffer.ts): it claims the offer's try left, waits out p1's try in flight, claims the
 * end's record (`settled|m1`) and offers; n8n stops p2 0.7 s into that try. p1's last try finds it
 * taken and leaves the "1", and the Catch-Up's run finds the end's record held: the "1" neither
 * resumes q1 nor runs. One stop, whose process claimed nothing after it (n8nProcess.ts), and faults
 * of the kinds the answerStops family draws, though more failed reads (13) than its six.
 */
const TAKEOVER_STOPPED: Case = {
	...plainCase([]),
	quietMs: 3000,
	longestMs: 20_000,
	processes: 2,
	route: [0, 1],
	bursts: [
		{ person: 0, pauseMs: 9295, gapsMs: [], offlineMs: 0, saveGapMs: 300 },
		{ person: 0, pauseMs: 62_000, gapsMs: [], offlineMs: 0, saveGapMs: 300 },
	],
	saveJitterMs: [0, 0],
	// Read 0 is p1's hold, 1 to 9 the node's for p1's tries, 10 p2's hold, 11 to 13 p2's try.
	readFaults: [undefined, ...Array<ReadFault>(9).fill(429), undefined, 429, 429, 429],
	readLatencyMs: 5,
	answers: {
		n8nLine: 1,
		questions: [{ afterMessage: -1, delayMs: 10 }],
		replies: [{ message: 0, text: '1' }],
	},
	catchUp: true,
	stops: [{ afterMessage: 1, delayMs: 10_000, process: 1 }],
};

export const ANSWER_FINDING_CASES: Record<string, Array<{ name: string; case: Case }>> = {
	'S8-1': [
		{
			name: 'n8n stops while the run offers the "1", after answering its delivery; the person\'s next message comes 0.6 s later: the "1" resumes its question or runs',
			case: STOPPED_DURING_OFFER,
		},
		{
			name: 'n8n stops while the run offers the "1" again (the node could not read), every delivery of its burst answered: the "1" and the three messages after it resume the question or run',
			case: STOPPED_DURING_RETRIED_OFFER,
		},
	],
	'S8-1b': [
		{
			name: 'the next message\'s run takes over the offer of the "1" that the first run is still trying (the node cannot read), and n8n stops during its try: the "1" resumes its question or runs',
			case: TAKEOVER_STOPPED,
		},
	],
};
