/**
 * What a case came to, as text: each run (its process, messages, outputs, when), each read, each
 * delivery attempt and its answer, the answers resumed, what the Catch-Up poll did. Two runs of one
 * case must give the same text wherever it falls in a sequence (orderIndependence.test.ts). The
 * serials that are new in every case on purpose (questions' and executions' ids, the workflow id:
 * questions.ts, world.ts) are left out, as what they number is the same.
 */
import type { Outcome } from './world';

export function fingerprint(outcome: Outcome): string {
	return JSON.stringify({
		runs: outcome.runs,
		// The service's clock: counted from the case's first read.
		reads: outcome.reads.map((read) => ({ ...read, at: read.at - (outcome.reads[0]?.at ?? 0) })),
		attempts: outcome.attempts,
		unsettled: outcome.unsettled,
		answeredUnrecorded: outcome.answeredUnrecorded,
		incarnations: outcome.incarnations,
		resumes: outcome.resumes,
		statusLookups: outcome.statusLookups,
		catchUp: outcome.catchUp,
		ownUrlFailures: outcome.ownUrlFailures,
	})
		.replace(/\b(q|exec|key-q)(\d+)-\d+\b/g, '$1$2')
		.replace(/\bsim\d+\b/g, 'sim');
}
