/**
 * The rule that a run holds one burst, whole and in written order (invariants.ts 'wholeBurst'),
 * split only where the spec forces it (limits.ts uploadedAfterRun, finding C), an answer leaving
 * its burst. A message held back from its burst runs alone later, its burst's others without it:
 * an answer n8n's own URL kept from its question until given up on (ownUrlRule.ts), or a lost
 * message that could answer a question of its chat, which a delivered run's catch-up leaves (an
 * answer may have taken it: conversations.md, Catch Up Missed Messages) and the Catch-Up poll runs,
 * or one whose reads failed to the service's third attempt, run "Not grouped".
 */
import { uploadedAfterRun } from './limits';
import type { Case } from './scenario';
import type { Outcome } from './world';

type Run = Outcome['runs'][number];
/** invariants.ts's Violation of this rule (not imported: invariants.ts imports this module). */
type Broken = { rule: 'wholeBurst'; detail: string };

export function wholeBurstViolations(
	c: Case,
	outcome: Outcome,
	/** The spec's bursts, the answers out of them (those run as messages in). */
	bursts: readonly string[][],
	asMessages: ReadonlyMap<string, string>,
): Broken[] {
	const ran = outcome.runs.filter((run) => run.passedOn);
	const pieces = bursts.flatMap((burst) => uploadedAfterRun(c, burst, outcome, ran));
	// A message whose reads failed to the service's third attempt runs alone, "Not grouped"
	// (conversations.md), its burst's others without it; not one no read failed for (R43de-1), nor
	// one given up on sooner (R12b-3).
	const ungrouped = ran
		.filter(
			(run) =>
				run.groupingError?.includes("(still not read at the service's third attempt)") &&
				!run.groupingError.includes('the service was busy ('),
		)
		.flatMap((run) => run.messageIds);
	const heldBack = new Set([
		...asMessages.keys(),
		...polledPossibleAnswers(c, outcome, ran),
		...ungrouped,
	]);
	const apart = bursts
		.map((burst) => burst.filter((id) => !heldBack.has(id)))
		.filter((burst) => burst.length > 0)
		.flatMap((burst) => uploadedAfterRun(c, burst, outcome, ran));
	const found: Broken[] = [];
	for (const run of ran) {
		const alone = run.messageIds.every((id) => heldBack.has(id));
		if (whole(run, pieces) || (heldBack.size > 0 && (alone || whole(run, apart)))) continue;
		const burst = pieces.find((candidate) => candidate.includes(run.messageIds[0])) ?? [];
		found.push({
			rule: 'wholeBurst',
			detail: `a run of [${run.messageIds.join(' ')}]${run.groupingError ? ` (${run.groupingError})` : ''}; its burst is [${burst.join(' ')}]`,
		});
	}
	return found;
}

/** Whether the run holds one of `within`, whole and in order. */
function whole(run: Run, within: readonly string[][]): boolean {
	const burst = within.find((candidate) => candidate.includes(run.messageIds[0])) ?? [];
	const start = burst.indexOf(run.messageIds[0]);
	const inOrder = run.messageIds.every((id, offset) => burst[start + offset] === id);
	return inOrder && run.messageIds.length === burst.length;
}

/** Lost messages after a question of their chat, run by the Catch-Up poll's runs only. */
function polledPossibleAnswers(c: Case, outcome: Outcome, ran: readonly Run[]): string[] {
	if (!c.catchUp || !c.answers) return [];
	return outcome.messages
		.filter(
			(message) =>
				c.lost?.includes(message.index) &&
				!outcome.attempts.some((attempt) => attempt.message === message.id) &&
				outcome.own.some(
					(own) =>
						own.id.startsWith('q') && own.person === message.person && own.at < message.stampedAt,
				) &&
				ran.every((run) => run.polled || !run.messageIds.includes(message.id)),
		)
		.map((message) => message.id);
}
