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
	everything: {
		findings: '1 to 5 together',
		rules: ['oneRun', 'wholeBurst', 'answeredFirst', 'reads', 'answeredInTime', 'settled'],
	},
};

/** Issue 43's findings today's code still has (findings.test.ts holds each fixed case to it). */
export const KNOWN_FINDINGS: ReadonlySet<number> = new Set([1, 2, 3, 4, 5]);
