/**
 * The limit n8n's own URL failing sets (docs/answers-in-chat.md, "When an answer may wait, miss,
 * or resume twice"; Limits): an answer whose question n8n could not be asked about through its
 * own waiting webhooks runs as the ordinary message it then is, at the service's third attempt of
 * its delivery, after its run's last offer try (2.5 minutes), or at the Catch-Up poll that gives
 * up on its chat (failed asks at 2 polls or more spanning 10 minutes or more, probePatience.ts).
 * It then never resumes its question, which still waits for a quoting reply or its links. Only
 * that is excused ('unreachable'): the answer ran once, as a message, and a request to its
 * question's link failed by the fault where its run decided so; a poll's run only once the chat's
 * asks had failed for the poll's whole patience. Anything else stays 'answers' or 'oneRun'.
 */
import type { Case, PlannedMessage } from './scenario';
import { conversationOf } from './service';
import type { Outcome } from './world';

/**
 * The poll's patience as docs/answers-in-chat.md promises it (2 polls over 10 minutes), stated
 * here, not imported from probePatience.ts: the rule holds the code to the promise.
 */
const POLL_PATIENCE_MS = 10 * 60_000;
/** A delivery's probe comes within its hold (8.5 s), a poll's ask just before it emits: with margin. */
const ASKED_BEFORE_RUN_MS = 60_000;
/** A run's offer tries end 153 s after the first, the last's time-out 5 s later: with margin. */
const OFFERED_AFTER_RUN_MS = 180_000;

/** Why `messageId`, the answer the rule names for `question`, ran as a message, if the limit says so. */
export function unreachableAnswer(
	c: Case,
	outcome: Outcome,
	messageId: string,
	question: string,
	/** Its burst, as the spec draws it. */
	burst: readonly string[] = [messageId],
): string | undefined {
	const failures = outcome.ownUrlFailures ?? [];
	if (!c.ownUrl || failures.length === 0) return undefined;
	const ran = outcome.runs.filter((run) => run.passedOn && run.messageIds.includes(messageId));
	if (ran.length === 0) return leftAsAnswered(c, outcome, messageId, burst);
	if (ran.length !== 1) return undefined;
	const [run] = ran;
	const execution = [...outcome.questionOf].find(([, id]) => id === question)?.[0];
	const own = failures.filter((failure) => failure.execution === execution);
	const offered = own.some(
		(failure) =>
			!failure.probe && failure.at > run.at && failure.at <= run.at + OFFERED_AFTER_RUN_MS,
	);
	const asked = own.some(
		(failure) =>
			failure.probe && failure.at <= run.at && failure.at >= run.at - ASKED_BEFORE_RUN_MS,
	);
	const how = offered
		? 'its run could not offer it'
		: asked && (!run.polled || pollGaveUp(outcome, messageId, run.at))
			? run.polled
				? 'the Catch-Up poll gave up asking about its chat'
				: 'its delivery could not ask about it'
			: undefined;
	return how && `n8n's own URL failed (${c.ownUrl.kind}): ${how}, so it ran as a message`;
}

/** Whether the poll's asks in the message's chat failed over its whole patience before `at`. */
function pollGaveUp(outcome: Outcome, messageId: string, at: number): boolean {
	const person = outcome.messages.find((message) => message.id === messageId)?.person ?? 0;
	const times = (outcome.ownUrlFailures ?? [])
		.filter(
			(failure) =>
				failure.by === 'poll' &&
				failure.probe &&
				failure.conversationId === conversationOf(person) &&
				failure.at <= at,
		)
		.map((failure) => failure.at);
	return times.length >= 2 && at - Math.min(...times) >= POLL_PATIENCE_MS;
}

/** Whether, after `burst`, the next message in its chat is the account's (a question too). */
export function accountAnswered(
	outcome: Outcome,
	burst: readonly string[],
	person: number | undefined,
) {
	const members = outcome.messages.filter((message) => burst.includes(message.id));
	const last = members.reduce((a, b) => (b.stampedAt > a.stampedAt ? b : a));
	// An account's message with the same timestamp as a person's comes after it when the service
	// saved it no sooner (it lists the later saved first), as invariants.ts and questions.ts take it.
	const after = (at: number, message: PlannedMessage) =>
		at > message.stampedAt || (at === message.stampedAt && at >= message.savedAt);
	const next = outcome.messages
		.filter((entry) => entry.person === person && entry.stampedAt > last.stampedAt)
		.sort((x, y) => x.stampedAt - y.stampedAt)[0];
	return outcome.own.some(
		(entry) =>
			entry.person === person && after(entry.at, last) && (!next || !after(entry.at, next)),
	);
}

/**
 * S11b-2: a lost answer the poll gave up on is an ordinary lost message then, and one the account's
 * next message follows is answered by the catch-up's rule (catchUp.ts `answered`): it runs nowhere,
 * as such a message does (invariants.ts nothingFollows), though the poll logs that it runs.
 */
function leftAsAnswered(
	c: Case,
	outcome: Outcome,
	messageId: string,
	burst: readonly string[],
): string | undefined {
	const message = outcome.messages.find((entry) => entry.id === messageId);
	if (!message || !c.lost?.includes(message.index)) return undefined;
	if (outcome.attempts.some((attempt) => burst.includes(attempt.message))) return undefined;
	if (!accountAnswered(outcome, burst, message.person)) return undefined;
	const at = Math.max(...(outcome.ownUrlFailures ?? []).map((failure) => failure.at));
	if (!pollGaveUp(outcome, messageId, at)) return undefined;
	return `n8n's own URL failed (${c.ownUrl?.kind}): the Catch-Up poll gave up asking about its chat, and its event lost, the account's next message answers it: it runs nowhere, as any such message (S11b-2)`;
}
