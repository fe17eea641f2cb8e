/**
 * Hand-written cases: the findings of issue 43 as the simulator states them, so that each one is a
 * named, fixed case besides whatever the generators find.
 */
import type { Case } from './scenario';

/** One burst of `gapsMs.length + 1` messages, delivered at once, nothing failing, clocks true. */
export function plainCase(gapsMs: number[], overrides: Partial<Case> = {}): Case {
	const messages = gapsMs.length + 1;
	return {
		phaseMs: 0,
		quietMs: 5000,
		longestMs: 30_000,
		dedupe: true,
		processes: 1,
		bursts: [{ person: 0, pauseMs: 6000, gapsMs, offlineMs: 0, saveGapMs: 0 }],
		saveJitterMs: Array.from({ length: messages }, () => 0),
		delivery: {
			shape: 'prompt',
			lateMs: 0,
			trickleMs: 0,
			scatterMs: Array.from({ length: messages }, () => 0),
		},
		copies: [],
		jitter: [0],
		route: [0],
		readFaults: [],
		readLatencyMs: 20,
		recordFails: [],
		ownMessages: [],
		stopsAfterRecording: [],
		stops: [],
		phone: { skewMs: 0 },
		host: { skewMs: 0 },
		...overrides,
	};
}

/** Written 0.3 s apart, saved 30 s later (the phone offline) `saveGapMs` apart, each delivered as saved. */
const savedLate = (saveGapMs: number): Pick<Case, 'bursts'> => ({
	bursts: [{ person: 0, pauseMs: 6000, gapsMs: [300, 300], offlineMs: 30_000, saveGapMs }],
});

/**
 * Two bursts of four and five messages typed 50 ms apart, uploaded 102 s and 96 s later, the
 * first 1 s a message, the second 0.3 s; each delivered 1 s apart once saved (seed 1128, late).
 */
const uploadedOutOfOrder = (phoneSkewMs: number): Case =>
	plainCase([50, 50, 50], {
		quietMs: 2000,
		longestMs: 20_000,
		bursts: [
			{ person: 0, pauseMs: 3000, gapsMs: [50, 50, 50], offlineMs: 102_219, saveGapMs: 1000 },
			{ person: 0, pauseMs: 3000, gapsMs: [50, 50, 50, 50], offlineMs: 96_287, saveGapMs: 300 },
		],
		saveJitterMs: [0, 0, 0, 54, 0, 0, 0, 0, 162],
		delivery: { shape: 'trickle', lateMs: 1, trickleMs: 1000, scatterMs: Array(9).fill(0) },
		readLatencyMs: 5,
		phone: { skewMs: phoneSkewMs },
	});

/**
 * A message, then "1" `gapMs` later answering the question asked before (quiet window 2 s), with
 * Deduplicate Events off: the "1" is delivered again 3.3 s after its first attempt.
 */
const answerCopiedLater = (gapMs: number): Case =>
	plainCase([gapMs], {
		quietMs: 2000,
		dedupe: false,
		copies: [{ message: 1, afterMs: 3300 }],
		answers: {
			n8nLine: 2,
			questions: [{ afterMessage: -1, delayMs: 2000 }],
			replies: [{ message: 1, text: '1' }],
		},
	});

/**
 * A burst typed `gapsMs` apart (quiet window 5 s, Longest Wait 20 s), each message delivered as
 * saved but the second, 9 s late, so that the first's desk decides alone; the first read's
 * attempts fail as `readFaults` says (S6-4's class: the answering call comes seconds after the read
 * was planned, and the next message is saved in between).
 */
const readsFailWhileSaved = (
	gapsMs: number[],
	readFaults: Case['readFaults'],
	overrides: Partial<Case>,
): Case =>
	plainCase(gapsMs, {
		longestMs: 20_000,
		delivery: {
			shape: 'prompt',
			lateMs: 0,
			trickleMs: 0,
			scatterMs: [0, 9000, ...gapsMs.slice(1).map(() => 0)],
		},
		readFaults,
		readLatencyMs: 5,
		...overrides,
	});

/** A phone `skewMs` behind. */
const behind = (skewMs: number): Partial<Case> => ({ phone: { skewMs } });

/** Each finding: its cases, and the invariants it breaks. */
export const FINDING_CASES: Record<string, Array<{ name: string; case: Case }>> = {
	1: [
		...[20, 100, 300, 1000].map((ms) => ({
			name: `three messages written 0.3 s apart, saved and delivered 30 s later ${ms} ms apart`,
			case: plainCase([300, 300], savedLate(ms)),
		})),
		{
			name: 'typed 1 s apart on a phone whose clock runs 60 s behind',
			case: plainCase([1000, 1000], { phone: { skewMs: -60_000 } }),
		},
	],
	2: [
		{
			name: 'n8n fails to record the run of a burst of two',
			case: plainCase([300], { recordFails: [0] }),
		},
	],
	3: [
		{
			name: 'a burst saved and delivered 160 s after it was written, the service unreadable for its first hold (six 503s)',
			case: plainCase([300, 300], {
				bursts: [
					{ person: 0, pauseMs: 6000, gapsMs: [300, 300], offlineMs: 160_000, saveGapMs: 0 },
				],
				readFaults: [503, 503, 503, 503, 503, 503],
			}),
		},
	],
	4: [
		{
			name: 'a burst of two, quiet window 12 s, Deduplicate Events off',
			case: plainCase([2000], { quietMs: 12_000, dedupe: false }),
		},
	],
	5: [
		{
			name: 'the host clock steps +20 s while a burst of three is held',
			case: plainCase([300, 300], {
				host: { skewMs: 0, step: { afterMessage: 2, delayMs: 500, ms: 20_000 } },
			}),
		},
	],
	6: [
		{
			name: 'a reply quoting question A with "1", then "1" for the newer B, 0.3 s apart',
			case: plainCase([300], {
				answers: {
					n8nLine: 2,
					questions: [
						{ afterMessage: -1, delayMs: 4000 },
						{ afterMessage: -1, delayMs: 2000 },
					],
					replies: [
						{ message: 0, text: '1', quotes: 0 },
						{ message: 1, text: '1' },
					],
				},
			}),
		},
	],
	7: [
		{
			name: 'one "1" delivered twice at once to two webhook processes, Deduplicate Events off, n8n 1.x',
			case: plainCase([], {
				dedupe: false,
				processes: 2,
				route: [0, 1],
				copies: [{ message: 0, afterMs: 0 }],
				answers: {
					n8nLine: 1,
					questions: [{ afterMessage: -1, delayMs: 2000 }],
					replies: [{ message: 0, text: '1' }],
				},
			}),
		},
	],
	D: [
		{
			name: 'a message, then "1" alone in its burst 2.5 s later (quiet window 2 s), Deduplicate Events off, the "1" delivered again 3.3 s later, once its question stopped waiting (seed 43, answerCopies, shrunk)',
			case: answerCopiedLater(2500),
		},
		{
			name: 'a message and "1" in one burst, Deduplicate Events off, the "1" delivered again once the burst ran: the copy runs nothing',
			case: answerCopiedLater(300),
		},
	],
	10: [
		{
			name: 'a burst of three ordinary messages with a question waiting: each is offered, a look-up each',
			case: plainCase([300, 300], {
				answers: { n8nLine: 2, questions: [{ afterMessage: -1, delayMs: 2000 }], replies: [] },
			}),
		},
	],
	E: [
		{
			name: "a phone 2.9 s behind, a burst of two delivered 22 s late, its first message's run not recorded, the process stopped, the account writing 40 s later: the first message's retry runs the burst",
			case: plainCase([647], {
				quietMs: 2000,
				longestMs: 20_000,
				dedupe: false,
				bursts: [{ person: 0, pauseMs: 22_189, gapsMs: [647], offlineMs: 0, saveGapMs: 300 }],
				delivery: { shape: 'prompt', lateMs: 0, trickleMs: 20, scatterMs: [22_027, 21_426] },
				readLatencyMs: 5,
				recordFails: [0],
				ownMessages: [{ afterMessage: 1, delayMs: 40_718 }],
				stops: [{ afterMessage: 0, delayMs: 46, process: 0 }],
				phone: { skewMs: -2899 },
			}),
		},
	],
	F: [
		{
			name: "two processes, a burst of two 1 s apart, the second's run not recorded (n8n answers 500): the first, carried by it, starts the burst itself at its deadline; the second's retry passes nothing on",
			case: plainCase([1000], { processes: 2, route: [0, 1], recordFails: [0] }),
		},
		{
			name: 'two processes each holding part of a burst of three whose last event is lost, nothing after it: the burst runs once, whole',
			case: plainCase([300, 300], { processes: 2, route: [0, 1], lost: [2] }),
		},
		{
			name: "two processes, a phone 33 s behind, a burst of four delivered 27 s late: each process's kept read says the other's delivery started the run, neither run is recorded, both retries are answered as carried",
			case: {
				phaseMs: 0,
				quietMs: 3000,
				longestMs: 20000,
				dedupe: false,
				processes: 2,
				bursts: [
					{ person: 1, pauseMs: 56819, gapsMs: [981], offlineMs: 0, saveGapMs: 100 },
					{
						person: 1,
						pauseMs: 36888,
						gapsMs: [1251, 791, 1263],
						offlineMs: 58086,
						saveGapMs: 100,
					},
					{
						person: 1,
						pauseMs: 29423,
						gapsMs: [2326, 395, 552, 2423],
						offlineMs: 0,
						saveGapMs: 300,
					},
				],
				saveJitterMs: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
				delivery: {
					shape: 'trickle',
					lateMs: 26707,
					trickleMs: 20,
					scatterMs: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
				},
				copies: [],
				jitter: [0, 0, 0, 0, 0, 0, 0, 0],
				route: [0, 1],
				readFaults: [],
				readLatencyMs: 20,
				recordFails: [3, 4],
				ownMessages: [{ afterMessage: 1, delayMs: 10, nearNextMs: 0 }],
				stopsAfterRecording: [],
				stops: [],
				phone: { skewMs: -32729, step: { atMessage: 0, ms: 0 } },
				host: { skewMs: 0 },
			},
		},
	],
	G: [
		{
			name: "a lost first message, then (past catch-up's 3 min) a burst of five whose last message's event is lost too and nothing follows: the four delivered ones were answered 200 as carried by the last one's delivery, which never comes, so neither burst ran",
			case: {
				...plainCase([], { quietMs: 3000, longestMs: 20_000, readLatencyMs: 5 }),
				bursts: [
					{ person: 0, pauseMs: 16_781, gapsMs: [], offlineMs: 0, saveGapMs: 1000 },
					{
						person: 0,
						pauseMs: 204_312,
						gapsMs: [2211, 590, 2002, 806],
						offlineMs: 0,
						saveGapMs: 100,
					},
				],
				saveJitterMs: [0, 0, 0, 0, 0, 0],
				delivery: { shape: 'prompt', lateMs: 0, trickleMs: 20, scatterMs: [0, 0, 0, 0, 0, 0] },
				lost: [0, 5],
				jitter: [0, 0, 0, 0, 0, 0, 0, 0],
			},
		},
	],
	A: [
		{
			name: "the account writes 4.3 s after the person's second message, just after the third is stamped (the phone 0.2 s behind) but before it is saved: [m1 m2] runs, then [m1 m2 m3]",
			case: plainCase([3744, 4538], {
				saveJitterMs: [23, 0, 0],
				delivery: { shape: 'prompt', lateMs: 0, trickleMs: 0, scatterMs: [295, 0, 0] },
				phone: { skewMs: -220 },
				ownMessages: [{ afterMessage: 1, delayMs: 4319 }],
			}),
		},
		{
			name: "two processes, the account's message saved before the person's last (its timestamp just after): one process reads back to back for 250 ms (16 reads at 20 ms a read)",
			case: plainCase([1138, 1231], {
				phaseMs: 500,
				quietMs: 2000,
				processes: 2,
				route: [0, 1],
				saveJitterMs: [27, 0, 0],
				phone: { skewMs: -224 },
				ownMessages: [{ afterMessage: 1, delayMs: 1008 }],
			}),
		},
	],
	J: [
		{
			name: "a person's two bursts uploaded late, the later one first (trickled 1 s apart), the earlier saved 1 s a message: a read for the later one shows three of the earlier's four, and its first delivery runs them without the fourth, saved 54 ms after its slot",
			case: uploadedOutOfOrder(0),
		},
	],
	L: [
		{
			name: "J's uploads from a phone 77 s behind: the later burst's run catches up the earlier one's three saved messages, whose timestamps say they closed 3 min ago, before the fourth is saved",
			case: uploadedOutOfOrder(-77_096),
		},
	],
	M: [
		{
			name: "a phone 11 ms ahead, the account writing 1 ms before m4's timestamp, after m4 was saved, and a read that takes 235 ms: m1, m2 and m3 are answered 200 when m4 arrives, and never run (fails on f37947a too)",
			case: plainCase([2400, 2081, 3613, 3595], {
				longestMs: 20_000,
				delivery: { shape: 'prompt', lateMs: 0, trickleMs: 20, scatterMs: [109, 0, 0, 0, 0] },
				readLatencyMs: 235,
				ownMessages: [{ afterMessage: 3, delayMs: 10 }],
				answers: { n8nLine: 1, questions: [{ afterMessage: 0, delayMs: 10 }], replies: [] },
				phone: { skewMs: 11 },
			}),
		},
	],
	K: [
		{
			name: "a question sent 10 ms after a person's last message m12, saved 13 ms before it (the phone 31 ms behind): the read that shows the question runs [m8 … m11] without m12, then reads back to back until it can settle m12",
			case: plainCase([473], {
				longestMs: 20_000,
				bursts: [
					{ person: 0, pauseMs: 36_441, gapsMs: [473], offlineMs: 0, saveGapMs: 100 },
					{
						person: 0,
						pauseMs: 40_214,
						gapsMs: [3092, 4362, 2200, 1738],
						offlineMs: 0,
						saveGapMs: 1000,
					},
					{
						person: 0,
						pauseMs: 34_181,
						gapsMs: [2816, 692, 263, 3931],
						offlineMs: 0,
						saveGapMs: 20,
					},
				],
				saveJitterMs: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 23],
				delivery: { shape: 'prompt', lateMs: 0, trickleMs: 20, scatterMs: Array(12).fill(0) },
				readLatencyMs: 5,
				phone: { skewMs: -31 },
				answers: { n8nLine: 1, questions: [{ afterMessage: 11, delayMs: 10 }], replies: [] },
			}),
		},
		{
			name: 'the same burst alone: the read loop (a read every 5 ms for 250 ms)',
			case: plainCase([2816, 692, 263, 3931], {
				longestMs: 20_000,
				saveJitterMs: [0, 0, 0, 0, 23],
				readLatencyMs: 5,
				phone: { skewMs: -31 },
				answers: { n8nLine: 1, questions: [{ afterMessage: 4, delayMs: 10 }], replies: [] },
			}),
		},
	],
	C: [
		{
			name: 'a phone 31.8 s behind uploads two messages 5 s late, stamped just before the account wrote (seed 20261301, everything): one run of both',
			case: plainCase([50, 50, 50], {
				longestMs: 20_000,
				dedupe: false,
				bursts: [
					{ person: 0, pauseMs: 6000, gapsMs: [50, 50, 50], offlineMs: 5000, saveGapMs: 20 },
					{ person: 0, pauseMs: 31_640, gapsMs: [50], offlineMs: 5000, saveGapMs: 20 },
				],
				saveJitterMs: Array(6).fill(0),
				delivery: { shape: 'prompt', lateMs: 0, trickleMs: 20, scatterMs: Array(6).fill(0) },
				readLatencyMs: 5,
				ownMessages: [{ afterMessage: 0, delayMs: 10 }],
				phone: { skewMs: -31_831 },
			}),
		},
	],
	'S6-4': [
		{
			name: 'three messages 4 s apart, a phone 28 s behind, the first read answered after 503, 429, 503, 429, 429, 429: one run',
			case: readsFailWhileSaved([4000, 4000], [503, 429, 503, 429, 429, 429], behind(-28_000)),
		},
		{
			name: 'four messages 4.5, 3.8 and 4.2 s apart, a phone 60 s behind, the first read answered after five 429s: one run',
			case: readsFailWhileSaved([4500, 3800, 4200], [429, 429, 429, 429, 429], behind(-60_000)),
		},
		{
			name: 'three messages typed offline, uploaded 30 s later 4 s apart, the first read answered after five 429s: one run',
			case: readsFailWhileSaved([300, 300], [429, 429, 429, 429, 429], {
				bursts: [
					{ person: 0, pauseMs: 6000, gapsMs: [300, 300], offlineMs: 30_000, saveGapMs: 4000 },
				],
			}),
		},
	],
	'S8-2': [
		{
			name: "a phone 5.001 s behind (over the 5 s quiet window: C'), m9 at one process and its burst's last, m12, at the other: m9's process learns m12's save only from its read 3.9 s later, so m9 goes back (503) once and its retry settles it (seed 20261407, everything)",
			case: plainCase([3858, 4259], {
				longestMs: 20_000,
				dedupe: false,
				processes: 2,
				bursts: [
					{ person: 1, pauseMs: 60_627, gapsMs: [3858, 4259], offlineMs: 91_979, saveGapMs: 100 },
					{
						person: 1,
						pauseMs: 55_003,
						gapsMs: [2456, 1073, 1312, 1294],
						offlineMs: 89_287,
						saveGapMs: 1000,
					},
					{ person: 1, pauseMs: 45_733, gapsMs: [2492, 78, 1141], offlineMs: 0, saveGapMs: 20 },
				],
				saveJitterMs: [126, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
				delivery: {
					shape: 'prompt',
					lateMs: 0,
					trickleMs: 20,
					scatterMs: [16_872, 18_587, 16_798, 0, 0, 0, 0, 0, 4399, 0, 0, 0],
				},
				jitter: Array(8).fill(0),
				route: [0, 1, 0],
				readLatencyMs: 5,
				phone: { skewMs: -5001 },
			}),
		},
	],
	'S8-2b': [
		{
			name: "a phone 3.001 s behind (over the 3 s quiet window), m3 delivered first runs [m1 m2 m3], then m7 of the next burst: the read for m7 no longer dates m3's save, and m2 and m1, carried by the first read, went back (503) at their deadlines (seed 20261408, late)",
			case: plainCase([1518, 1350], {
				quietMs: 3000,
				bursts: [
					{ person: 0, pauseMs: 4008, gapsMs: [1518, 1350], offlineMs: 0, saveGapMs: 1000 },
					{ person: 0, pauseMs: 16_486, gapsMs: [50, 168, 1102], offlineMs: 0, saveGapMs: 1000 },
				],
				saveJitterMs: Array(7).fill(0),
				delivery: {
					shape: 'prompt',
					lateMs: 0,
					trickleMs: 20,
					scatterMs: [23_073, 20_482, 19_072, 4646, 3669, 2429, 1272],
				},
				jitter: Array(8).fill(0),
				readLatencyMs: 5,
				phone: { skewMs: -3001 },
			}),
		},
	],
	B: [
		{
			name: 'five messages 1.3 to 1.7 s apart (quiet window 2 s) delivered alternately to two processes: a read per quiet window each process sees pass, within the bound',
			case: plainCase([1278, 1311, 1610, 1689], { quietMs: 2000, processes: 2, route: [0, 1] }),
		},
	],
};

/** Cases today's code gets right: the checks pass where they should. */
export const CONTROL_CASES: Array<{ name: string; case: Case }> = [
	{ name: 'a burst of three, delivered as written', case: plainCase([300, 300]) },
	{
		name: "the account's message between two quick messages ends the first burst",
		case: plainCase([300], { ownMessages: [{ afterMessage: 0, delayMs: 100 }] }),
	},
	{
		name: 'a burst of three over two webhook processes, with a copy of its first delivery',
		case: plainCase([300, 300], {
			processes: 2,
			route: [0, 1, 1, 0],
			copies: [{ message: 0, afterMs: 2000 }],
		}),
	},
];

CONTROL_CASES.push(
	{
		name: "S6-4's reads failing, six messages 4 s apart: the Longest Wait (20 s) still splits them, [m1 … m5] and [m6]",
		case: readsFailWhileSaved(
			[4000, 4000, 4000, 4000, 4000],
			[503, 429, 503, 429, 429, 429],
			behind(-28_000),
		),
	},
	{
		name: "S6-4's reads failing, the third message 5.6 s after the second: its quiet window passed, two runs",
		case: readsFailWhileSaved([4000, 5600], [503, 429, 503, 429, 429, 429], behind(-28_000)),
	},
);

CONTROL_CASES.push({
	name: 'a "1" alone answers the question waiting, once (n8n 1.x)',
	case: plainCase([], {
		answers: {
			n8nLine: 1,
			questions: [{ afterMessage: -1, delayMs: 2000 }],
			replies: [{ message: 0, text: '1' }],
		},
	}),
});

/** Two bursts 4 min apart, the first's events lost: the second's read catches it up (issue 45). */
const lostThenWritesAgain = (overrides: Partial<Case> = {}) =>
	plainCase([], {
		bursts: [
			{ person: 0, pauseMs: 6000, gapsMs: [300], offlineMs: 0, saveGapMs: 0 },
			{ person: 0, pauseMs: 240_000, gapsMs: [], offlineMs: 0, saveGapMs: 0 },
		],
		saveJitterMs: [0, 0, 0],
		delivery: { shape: 'prompt', lateMs: 0, trickleMs: 0, scatterMs: [0, 0, 0] },
		lost: [0, 1],
		...overrides,
	});

CONTROL_CASES.push(
	{
		name: "a burst of two whose events were lost runs once, caught up by the person's next message",
		case: lostThenWritesAgain(),
	},
	{
		name: 'the same, its first event delivered late after all (40 s, over a second process): still once',
		case: lostThenWritesAgain({
			processes: 2,
			route: [0, 1],
			copies: [{ message: 0, afterMs: 40_000 }],
		}),
	},
);

/** Found in runs of the whole system (issue 43): a crash inside the second message's quiet window. */
export const CRASH_CASE: Case = plainCase([300], {
	ownMessages: [{ afterMessage: 0, delayMs: 100 }],
	stops: [{ afterMessage: 1, delayMs: 2000, process: 0 }],
});
