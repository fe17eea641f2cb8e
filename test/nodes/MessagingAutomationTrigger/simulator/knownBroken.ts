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
	late: {
		findings: '1 (a late burst runs once per message)',
		rules: ['oneRun', 'wholeBurst', 'reads'],
	},
	longQuiet: {
		findings: '4 (quiet window over 8 s with Deduplicate Events off runs twice)',
		rules: ['oneRun'],
	},
	unrecorded: {
		findings: '2 (a run n8n could not record is lost)',
		rules: ['oneRun', 'answeredFirst'],
	},
	readFaults: {
		findings: '1 and 3 (a late burst split; one read outage splits it for good)',
		rules: ['oneRun', 'wholeBurst', 'reads'],
	},
	hostClock: {
		findings: '5 (a host clock step makes every read time out)',
		rules: ['reads', 'answeredInTime'],
	},
	answers: {
		findings:
			'6 to 10 (answers lost, offered to the wrong question, costing a read and a look-up each)',
		rules: ['answers', 'oneRun', 'wholeBurst', 'reads', 'answeredInTime'],
	},
	answerCopies: {
		findings:
			'4, 7 and 10 (copies resumed twice on n8n 1.x; each offer costs a read and a look-up)',
		rules: ['answers', 'oneRun', 'wholeBurst', 'reads', 'answeredInTime'],
	},
	everything: {
		findings: '1 to 5 together',
		rules: ['oneRun', 'wholeBurst', 'answeredFirst', 'reads', 'answeredInTime', 'settled'],
	},
};

/**
 * Families broken by a finding too rare for the default budget to meet (findings.test.ts holds its
 * fixed case): `npm test` holds them to every invariant, the soak skips them until the fix is in.
 */
export const RARELY_BROKEN: Partial<Record<Family, KnownBreak>> = {
	accountWrites: {
		findings: "A (the account's message saved before the person's last, stamped just after it)",
		rules: ['oneRun', 'wholeBurst', 'reads'],
	},
};

/**
 * Rules a family is not held to yet, with the findings that break them, in rare cases the default
 * budget may not meet (the soak does): the family's other invariants still hold it.
 */
export const TOLERATED: Partial<Record<Family, KnownBreak>> = {
	copies: { findings: 'B (reads per burst over two processes)', rules: ['reads'] },
	stops: {
		findings: 'A and B (a read loop; reads per burst over two processes)',
		rules: ['reads'],
	},
	prompt: {
		findings: 'A and B (a read loop; reads per burst over two processes)',
		rules: ['reads'],
	},
};

/**
 * Findings today's code still has (findings.test.ts holds each fixed case to it): issue 43's
 * numbers, and A and B, found by this simulator.
 */
export const KNOWN_FINDINGS: ReadonlySet<string> = new Set([
	'1',
	'2',
	'3',
	'4',
	'5',
	'6',
	'7',
	'10',
	'A',
	'B',
]);
