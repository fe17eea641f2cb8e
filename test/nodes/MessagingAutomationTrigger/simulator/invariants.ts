/**
 * The invariants every case is held to (issue 43, docs/conversations.md). The bursts a case should
 * give are drawn here from the spec's rule alone (a person's messages with at most the quiet window
 * between neighbours, cut at the Longest Wait from each burst's first), on the timestamps the
 * service stores, never with the trigger's own code.
 */
import type { Case, OwnMessage, PlannedMessage } from './scenario';
import type { Outcome } from './world';
import { CLOSE_MARGIN_MS, closeTimes, HOLD_MS, readBound, uploadTailsUnseen } from './limits';
import { accountAnswered, unreachableAnswer } from './ownUrlRule';
import { takeoverViolations } from './takeoverRule';
import { wholeBurstViolations } from './wholeBurst';

export type Rule =
	/**
	 * Every inbound message is in exactly one run, or is exactly one answer; one whose event was
	 * lost runs once too when a later delivery in its chat shows it (Catch Up Missed Messages).
	 */
	| 'oneRun'
	/**
	 * The documented limit of a stop (docs/conversations.md): a message that ran nowhere because n8n
	 * stopped during the first step of a recorded run that claimed it, or that holds it and whose
	 * process answered a delivery of it. n8n lists the execution as crashed and its Retry runs it.
	 */
	| 'crashed'
	/** Each answer resumes the question the rule names, once; no execution resumes twice. */
	| 'answers'
	/**
	 * The documented limit of n8n's own URL failing (ownUrlRule.ts): an answer that ran once as a
	 * message, as its question could not be asked or offered to through that URL.
	 */
	| 'unreachable'
	/** A run keeps written order and holds one burst, whole: split only by the Longest Wait. */
	| 'wholeBurst'
	/** Human Takeover: each run out of Bot or Paused Chats as its chat's pause says (takeoverRule.ts). */
	| 'takeover'
	/** No delivery answered 2xx before its run is recorded (or settled without one). */
	| 'answeredFirst'
	/** Every delivery is answered 2xx in the end (within the service's first retries). */
	| 'settled'
	/** Reads per burst within the documented bound. */
	| 'reads'
	/**
	 * With nothing failing, a quiet window under 8 s and no phone clock ahead, every delivery is
	 * answered 2xx within the service's 10 s at its first attempt.
	 */
	| 'answeredInTime';

export interface Violation {
	rule: Rule;
	detail: string;
}

/** Reference bursts of every person: message ids per burst, in written order. */
export function referenceBursts(
	c: Case,
	messages: readonly PlannedMessage[],
	own: readonly OwnMessage[] = [],
): string[][] {
	const people = [...new Set(messages.map((message) => message.person))];
	return people.flatMap((person) =>
		personBursts(
			c,
			messages.filter((message) => message.person === person),
			own.filter((message) => message.person === person),
		),
	);
}

/**
 * Whether the account's message comes after the person's `message` in the chat: stamped later, or
 * with the same timestamp and saved after it (the service lists the later saved first, and the
 * trigger reads them in that order).
 */
const ownFollows = (entry: OwnMessage, message: PlannedMessage) =>
	entry.at > message.stampedAt || (entry.at === message.stampedAt && entry.at >= message.savedAt);

/** One person's bursts, in their chat; the account's message there ends one. */
function personBursts(
	c: Case,
	messages: readonly PlannedMessage[],
	own: readonly OwnMessage[] = [],
): string[][] {
	const ordered = [...messages].sort((a, b) => a.stampedAt - b.stampedAt || a.index - b.index);
	const bursts: PlannedMessage[][] = [];
	let before: PlannedMessage | undefined;
	for (const message of ordered) {
		const after = before;
		const ownBefore = own.some(
			(entry) => (!after || ownFollows(entry, after)) && !ownFollows(entry, message),
		);
		before = message;
		if (ownBefore) bursts.push([]);
		const current = bursts[bursts.length - 1];
		const previous = current?.[current.length - 1];
		const joins =
			current !== undefined &&
			previous !== undefined &&
			message.stampedAt - previous.stampedAt <= c.quietMs &&
			message.stampedAt - current[0].stampedAt < c.longestMs;
		if (joins) current.push(message);
		else if (current?.length === 0) current.push(message);
		else bursts.push([message]);
	}
	return bursts
		.filter((burst) => burst.length > 0)
		.map((burst) => burst.map((message) => message.id));
}

export function violations(c: Case, outcome: Outcome): Violation[] {
	const written = referenceBursts(c, outcome.messages, outcome.own);
	// An answer n8n's own URL kept from its question runs as a message, in its burst (ownUrlRule.ts).
	const asMessages = new Map(
		[...outcome.expected].flatMap(([message, question]) => {
			const resumed = outcome.resumes.some((resume) => resume.messageId === message);
			const burst = written.find((candidate) => candidate.includes(message));
			const why = resumed ? undefined : unreachableAnswer(c, outcome, message, question, burst);
			return why ? [[message, why] as const] : [];
		}),
	);
	const found: Violation[] = [...answerViolations(outcome, asMessages)];
	// An answer leaves its burst: the rest of it runs as one.
	const bursts = written
		.map((burst) => burst.filter((id) => !outcome.expected.has(id) || asMessages.has(id)))
		.filter((burst) => burst.length > 0);
	const ran = outcome.runs.filter((run) => run.passedOn);
	for (const message of outcome.messages) {
		const answers = outcome.resumes.filter((resume) => resume.messageId === message.id).length;
		const times = ran.filter((run) => run.messageIds.includes(message.id)).length + answers;
		if (times === 1 || (times === 0 && nothingFollows(c, outcome, written, message.id))) continue;
		const crashed = times === 0 && crashedWith(outcome, message.id);
		if (crashed) {
			found.push({ rule: 'crashed', detail: `${message.id} ran 0 times: ${crashed}` });
			continue;
		}
		const answered = outcome.attempts.some(
			(a) => a.message === message.id && (a.status ?? 500) < 300,
		);
		found.push({
			rule: 'oneRun',
			detail: `${message.id} ran ${times} times${times === 0 && answered ? ', though a delivery of it was answered 2xx' : ''}`,
		});
	}
	found.push(...wholeBurstViolations(c, outcome, bursts, asMessages));
	found.push(...takeoverViolations(c, outcome));
	for (const ids of outcome.answeredUnrecorded)
		found.push({
			rule: 'answeredFirst',
			detail: `the run of [${ids.join(' ')}] was answered 200 by the trigger, then n8n failed to record it`,
		});
	if (outcome.unsettled.length > 0)
		found.push({
			rule: 'settled',
			detail: `${outcome.unsettled.length} delivery chain(s) still not answered 2xx`,
		});
	// A phone clock ahead puts a burst's close past the hold: its delivery goes back, rightly, and
	// the bound (made for bursts that close within their hold) does not apply.
	const phoneAhead = c.phone.skewMs + (c.phone.step?.ms ?? 0) > 0;
	const reads = outcome.reads.filter((read) => !read.injected).length;
	// Each question answered may cost Send and Wait one read and one look-up; nothing else may, but
	// an offer made again after a fault the case injected (a failed read, n8n stopped) looks again.
	const bound = readBound(c, outcome, written) + outcome.expected.size;
	const restarts = Math.max(0, outcome.incarnations - c.processes);
	const faults = outcome.reads.filter((read) => read.injected).length + restarts;
	if (outcome.statusLookups > outcome.expected.size + faults)
		found.push({
			rule: 'reads',
			detail: `${outcome.statusLookups} question look-ups for ${outcome.expected.size} answer(s)`,
		});
	if (reads > bound && !phoneAhead)
		found.push({
			rule: 'reads',
			detail: `${reads} reads for ${bursts.length} burst(s); bound ${bound}`,
		});
	const calm =
		c.quietMs < 8000 &&
		!phoneAhead &&
		[
			c.readFaults.filter((fault) => fault !== undefined),
			c.recordFails,
			c.stops,
			c.stopsAfterRecording,
		].every((faults) => faults.length === 0) &&
		!c.ownUrl;
	const closes = closeTimes(c, outcome, written);
	// C' (S8-2): a process learns a behind phone's last save from its own delivery of it, else only by a read.
	const unseen = uploadTailsUnseen(c, outcome, written);
	const late = outcome.attempts.filter(
		(attempt) =>
			attempt.attempt === 1 &&
			!answeredInTime(attempt) &&
			!unseen(attempt) &&
			(closes.get(attempt.message) ?? 0) + CLOSE_MARGIN_MS + 2 * c.readLatencyMs <=
				attempt.sentAt + HOLD_MS,
	);
	if (calm && late.length > 0)
		found.push({
			rule: 'answeredInTime',
			detail: `nothing failed, yet ${late.map((attempt) => `${attempt.message} (${attempt.status ?? 'no answer'} after ${(attempt.answeredAt ?? Infinity) - attempt.sentAt} ms)`).join(', ')}`,
		});
	return found;
}

/**
 * Whether nothing delivered can run `id`: no message of its burst was delivered, and no delivery
 * of the chat comes at or after the end of its burst (a chat where nothing follows needs
 * scheduling, docs/conversations.md). A burst whose last event was lost runs from a delivered one
 * (finding G): a carried delivery is answered only once a recorded run holds it.
 */
function nothingFollows(
	c: Case,
	outcome: Outcome,
	bursts: readonly string[][],
	id: string,
): boolean {
	const lost = new Set(
		(c.lost ?? []).filter((index) => !c.copies.some((copy) => copy.message === index)),
	);
	if (lost.size === 0) return false;
	const byId = new Map(outcome.messages.map((message) => [message.id, message]));
	const message = byId.get(id);
	const burst = bursts.find((candidate) => candidate.includes(id)) ?? [id];
	const end = Math.max(...burst.map((member) => byId.get(member)?.typedAt ?? 0));
	// A delivered member runs the burst from its read, but not one whose read failed to the end
	// ("Not grouped"): that run holds only its own message, and the rest is as good as undelivered.
	// A message delivered itself is never excused here (R12b-2).
	const delivered = (member: string) =>
		outcome.attempts.some((attempt) => attempt.message === member);
	const ranUngrouped = (member: string) =>
		outcome.runs.some((run) => run.groupingError && run.messageIds.includes(member));
	if (delivered(id) || burst.some((member) => delivered(member) && !ranUngrouped(member)))
		return false;
	// The Catch-Up node runs what nothing delivered can (pollProcess.ts), but a burst the account's
	// next message answered (conversations.md, Catch Up Missed Messages: `answered` in catchUp.ts).
	if (c.catchUp) return accountAnswered(outcome, burst, message?.person);
	return !outcome.messages.some(
		(other) => other.person === message?.person && !lost.has(other.index) && other.typedAt >= end,
	);
}

/**
 * Why `id` is in the crash limit, if it is: a run that n8n stopped during its first step claimed it,
 * or holds it and its process answered a delivery of it 2xx (held until a recorded run holds it), or
 * of its burst when its own event was lost, so no retry comes; the message ran nowhere else.
 */
function crashedWith(outcome: Outcome, id: string): string | undefined {
	// A run that ended and claimed it first dropped it: a loss of its own, whatever crashed beside
	// it (review s10b, S10b-1).
	if (outcome.runs.some((run) => !run.crashed && run.claimed?.includes(id))) return undefined;
	// Its event lost, a message's only run is the one a delivery of its burst started (stops with lost).
	const neverSent = !outcome.attempts.some((a) => a.message === id);
	for (const run of outcome.runs.filter((candidate) => candidate.crashed)) {
		const answered = (message: string) =>
			outcome.attempts.some(
				(a) => a.message === message && a.process === run.process && (a.status ?? 500) < 300,
			);
		const how = run.claimed?.includes(id)
			? 'claimed it'
			: run.messageIds.includes(id) &&
				  (answered(id) || (neverSent && run.messageIds.some(answered)))
				? `holds it, ${answered(id) ? 'its' : "its event lost, its burst's"} delivery answered 2xx`
				: undefined;
		if (how)
			return `n8n (${run.process}) stopped during the first step of the run of [${run.messageIds.join(' ')}], which ${how}; its execution is crashed, and n8n's Retry runs it`;
	}
	return undefined;
}

/** Pass Answers: each expected answer resumed its question, once; nothing else resumed anything. */
function answerViolations(outcome: Outcome, asMessages: ReadonlyMap<string, string>): Violation[] {
	const found: Violation[] = [];
	const executions = [...new Set(outcome.resumes.map((resume) => resume.execution))];
	for (const execution of executions) {
		const resumes = outcome.resumes.filter((resume) => resume.execution === execution);
		if (resumes.length > 1)
			found.push({
				rule: 'answers',
				detail: `${outcome.questionOf.get(execution)} resumed ${resumes.length} times (${resumes.map((resume) => resume.messageId).join(', ')})`,
			});
	}
	for (const resume of outcome.resumes) {
		const question = outcome.questionOf.get(resume.execution);
		const named = outcome.expected.get(resume.messageId);
		if (named !== question)
			found.push({
				rule: 'answers',
				detail: `${resume.messageId} resumed ${question}; the rule names ${named ?? 'no question'}`,
			});
	}
	for (const [message, question] of outcome.expected) {
		if (outcome.resumes.some((resume) => resume.messageId === message)) continue;
		const unreachable = asMessages.get(message);
		found.push({
			rule: unreachable ? 'unreachable' : 'answers',
			detail: `${message} answers ${question}, which it never resumed${unreachable ? `: ${unreachable}` : ''}`,
		});
	}
	return found;
}

const answeredInTime = (attempt: Outcome['attempts'][number]) =>
	(attempt.status ?? 500) < 300 && (attempt.answeredAt ?? Infinity) - attempt.sentAt <= 10_000;
