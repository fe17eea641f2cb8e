/*
 * One resume per question. n8n 2.x refuses a second resume of one execution itself; n8n 1.x does
 * not, and a reply offered twice at once (two triggers of the account, Deduplicate Events off)
 * would run the approval branch twice. The saved messages name one answer per question (the first
 * decides), so the question is claimed for that answer before the execution resumes, and a copy
 * finds the claim. n8n gives a waiting webhook no shared store (its processed-data store is for
 * executing nodes only), so the claim holds within this process: regular mode, or queue mode with
 * one webhook process.
 */

/** Questions remembered: far more than are answered within a copy's delay. */
const CLAIMS_KEPT = 5000;

const claims = new Map<string, string>();

/**
 * `first` when `answerId` is the first claim on the question (the execution resumes), `copy` when
 * it was claimed by the same answer already, `other` when another answer holds it.
 */
export function claimAnswer(questionId: string, answerId: string): 'first' | 'copy' | 'other' {
	const held = claims.get(questionId);
	if (held !== undefined) return held === answerId ? 'copy' : 'other';
	if (claims.size >= CLAIMS_KEPT) claims.delete(claims.keys().next().value as string);
	claims.set(questionId, answerId);
	return 'first';
}
