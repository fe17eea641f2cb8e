/*
 * One resume per question, within this process. n8n 2.x refuses a second resume of one execution
 * itself; n8n 1.x does not. A trigger's run claims each message in n8n's processed-data store before
 * it offers it (nodes/MessagingAutomationTrigger/answers/answerPass.ts), so copies, retries and
 * webhook processes of one trigger offer a reply once. That store is kept per workflow: two triggers
 * of the account in two workflows each offer it. The saved messages name one answer per question
 * (the first decides), so the question is claimed here for that answer before the execution
 * resumes, and the other offer finds the claim. n8n gives a waiting webhook no shared store, so
 * this claim holds within this process.
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
