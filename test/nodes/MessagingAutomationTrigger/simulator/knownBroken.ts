/**
 * The families today's trigger is known to break, each with the issue 43 findings that break it
 * and the invariants they break. While a family is listed, its test asserts that the simulator
 * still finds one of these violations (so the simulator keeps its teeth); once the fixes are in,
 * that test fails and says to take the family off this list, and it is held to every invariant.
 */
import type { Rule } from './invariants';
import type { Family } from './property';

export interface KnownBreak {
	findings: string;
	rules: readonly Rule[];
}

export const KNOWN_BROKEN: Partial<Record<Family, KnownBreak>> = {
	everything: {
		findings:
			"C (a message its phone uploads after the rest of its burst ran: two runs, each message once; seen in `late` with SIM_CASES=2000, seeds 20261129 and 20261130, on the code before the carried-delivery change too), C' (an upload's first delivery alone goes back once: 503), A, B (reads) and S (a carried delivery whose burst is still open at its deadline goes back and settles through its retries, each handing n8n a run; with n8n failing to record or stopping at each of them, three in a row in seed 20261140, the chain is still unanswered when the case ends, though every message ran once)",
		rules: ['wholeBurst', 'answeredInTime', 'reads', 'settled'],
	},
};

/**
 * Families broken by a finding too rare for the default budget to meet (findings.test.ts holds its
 * fixed case): `npm test` holds them to every invariant, the soak skips them until the fix is in.
 */
export const RARELY_BROKEN: Partial<Record<Family, KnownBreak>> = {};

/**
 * Rules a family is not held to yet, with the findings that break them, in rare cases the default
 * budget may not meet (the soak does): the family's other invariants still hold it.
 */
export const TOLERATED: Partial<Record<Family, KnownBreak>> = {
	late: {
		findings:
			"B (reads), and C' (the first delivery of a burst comes alone, the rest late, and nothing tells a phone clock behind from an upload: the burst may close past that delivery's hold, which goes back, 503, once; the retry settles it, the burst runs once and whole)",
		rules: ['reads', 'answeredInTime'],
	},
	readFaults: {
		findings:
			"B (reads, for scattered late deliveries), and C' (an upload whose first delivery comes alone, the rest late: that delivery goes back, 503, once; the burst runs once and whole)",
		rules: ['reads', 'answeredInTime'],
	},
	copies: { findings: 'B (reads per burst over two processes)', rules: ['reads'] },
	unrecorded: {
		findings:
			'B (reads per burst over two processes: a burst of five typed over 5 s, split over two processes, read 6 times, bound 5, seed 43, case 854: the soak in CI)',
		rules: ['reads'],
	},
	accountWrites: {
		findings:
			'B (reads per burst over two processes: a burst typed over 4.8 s, its deliveries split over two processes, read 5 times, bound 4, seed 2811, case 295)',
		rules: ['reads'],
	},
	lostEvents: {
		findings:
			"G' (a burst whose events are lost is longer than the process knows: a delivered message is held for one more read before its deadline, which shows the burst closed, so that it can start the run itself; 3 reads where the bound says 2)",
		rules: ['reads'],
	},
	answers: {
		findings:
			"H (reads: a case with a question waiting read 14 times for 4 bursts, bound 8, once in 770 cases of seed 43, since a held burst's carried messages are confirmed by a read of their own before their deadline)",
		rules: ['reads'],
	},
	stops: {
		findings: 'B (reads per burst over two processes)',
		rules: ['reads'],
	},
	prompt: {
		findings: 'B (reads per burst over two processes)',
		rules: ['reads'],
	},
};

/**
 * Findings today's code still has (findings.test.ts holds each fixed case to it): issue 43's
 * numbers, and B, found by this simulator (A: issue-43e's fix; F, G and M, a carried delivery
 * answered 200 on the promise of a run never recorded: conversationDesk.ts; L, R43b-1's class: the
 * catch-up window adds the delivered message's phone lag, safe once F, G and M were fixed).
 */
export const KNOWN_FINDINGS: ReadonlySet<string> = new Set(['B']);
