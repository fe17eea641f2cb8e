/**
 * What the spec and the trigger's hold allow, as the invariants (invariants.ts) take it: when a
 * burst closes on the service's clock, the reads a burst may cost, and the two limits of waiting
 * for uploads (the spec allows any upload delay, so the trigger must stop waiting somewhere): C (a
 * message uploaded after its burst ran) and C' (a burst's last delivery after another's hold). Each is derived in docs/conversations.md from what a process can know; the hold's timings
 * (8.5 s, the 1.05 s before a deadline, 0.3 s) are the trigger's own choices, stated there too.
 */
import type { Case, PlannedMessage } from './scenario';
import type { Outcome } from './world';

/**
 * The bound docs/conversations.md states, per burst. A process learns that a burst went on only
 * from a delivery it holds or from a read, and must answer each delivery within its hold. So each
 * webhook process incarnation that received part of it reads: once whenever the quiet window after
 * a message it received passes (from its timestamp) before it received a later one of the burst
 * (one process: once, at the close; two taking turns: once per delivery); once before the deadline
 * of each delivery it holds of a message the burst's last carries, while no read could show the
 * burst closed by then (that read decides the delivery's answer); holding no delivery of the
 * burst's last message, once more to see the burst close; when a delivery reaches it after its
 * message's quiet window passed (delivered late, uploaded, a phone that far behind), once at once,
 * to see what else was saved; and once for each message whose event was lost (no process received
 * it, so its quiet window may pass in each, G'). Every further delivery (a copy, a retry) may need
 * one more once the process's kept read is gone. Reads the case made fail (429, 503) are not
 * counted; reads the trigger gave up on are.
 */
export function readBound(c: Case, outcome: Outcome, bursts: string[][]): number {
	const closes = closeTimes(c, outcome, bursts);
	const stamped = new Map(outcome.messages.map((message) => [message.id, message.stampedAt]));
	let bound = 0;
	for (const burst of bursts) {
		const last = burst[burst.length - 1];
		const deliveries = outcome.attempts.filter((attempt) => burst.includes(attempt.message));
		const firsts = deliveries.filter((attempt) => attempt.attempt === 1);
		const further = deliveries.length - burst.length;
		const close = closes.get(last) ?? 0;
		// A message whose event was lost is one no process received: its quiet window may pass in each.
		const lost = burst.filter((id) => !deliveries.some((attempt) => attempt.message === id)).length;
		for (const process of new Set(deliveries.map((attempt) => attempt.process))) {
			const here = firsts.filter((attempt) => attempt.process === process);
			const quietPasses = here.filter(
				(attempt) =>
					!here.some(
						(later) =>
							burst.indexOf(later.message) > burst.indexOf(attempt.message) &&
							later.sentAt < (stamped.get(attempt.message) ?? 0) + c.quietMs,
					),
			).length;
			const confirms = here.filter(
				(attempt) =>
					attempt.message !== last &&
					signedAt(c, attempt.sentAt) + HOLD_MS - READ_LEAD_MS < close + SHOWN_AFTER_MS,
			).length;
			const seesClose = here.some((attempt) => attempt.message === last) ? 0 : 1;
			const late = here.some(
				(attempt) => attempt.sentAt > (stamped.get(attempt.message) ?? 0) + c.quietMs,
			);
			bound += Math.max(1, quietPasses) + confirms + seesClose + (late ? 1 : 0) + lost;
		}
		bound += Math.max(0, further);
	}
	return bound;
}

/**
 * Finding C, the limit the spec sets: a message the service saved after a run of its burst was
 * recorded, more than a quiet window after the latest of the burst's messages saved before it (a
 * phone uploading what it wrote offline after it saved what it wrote later), cannot join that
 * run, which nothing can hold back forever: it runs in a run of its own. So the burst splits
 * there, into what was saved by the first run's record and the rest (split again by the next
 * run); nowhere else. One saved within a quiet window of the rest is waited for, as the rest of
 * an upload is.
 */
export function uploadedAfterRun(
	c: Case,
	burst: readonly string[],
	outcome: Outcome,
	ran: readonly Outcome['runs'][number][],
): string[][] {
	const saved = new Map(outcome.messages.map((message) => [message.id, message.savedAt]));
	const pieces: string[][] = [];
	let rest = [...burst];
	for (;;) {
		const recorded = ran
			.filter((run) => run.messageIds.some((id) => rest.includes(id)))
			.map((run) => run.at);
		const first = Math.min(...recorded);
		const before = rest.filter((id) => (saved.get(id) ?? 0) <= first);
		const after = rest.filter((id) => !before.includes(id));
		const gap =
			Math.min(...after.map((id) => saved.get(id) ?? 0)) -
			Math.max(...before.map((id) => saved.get(id) ?? 0));
		if (before.length === 0 || after.length === 0 || gap <= c.quietMs) return [...pieces, rest];
		pieces.push(before);
		rest = after;
	}
}

/**
 * A delivery is answered 2xx only once a recorded run holds its message: one whose burst closes
 * after its 8.5 s hold (a burst typed over more than about 8.5 s less the quiet window) goes back
 * (503) and its retry is settled. The hold counts from the signed send time, in whole seconds (up
 * to 1 s earlier); the margin covers that and the read before the deadline (1.05 s before it,
 * showing what was saved 0.25 s before) that shows a carried message's burst closed.
 */
export const HOLD_MS = 8500;
export const CLOSE_MARGIN_MS = 2500;
/** A carried delivery's read comes this long before its deadline (the lead and the save slack). */
const READ_LEAD_MS = 1050;
/** A read shows a close this long after it: the save slack a read allows, and a timer's. */
const SHOWN_AFTER_MS = 300;

/** A delivery's signed send time (whole seconds of the service's clock), as case time. */
const signedAt = (c: Case, sentAt: number) => sentAt - ((c.phaseMs + sentAt) % 1000);

/**
 * When each message's burst closes (its quiet window after its last message, or its longest wait),
 * on the service's clock: no read shows a message before the service saved it, so a burst whose
 * phone runs behind or uploads late closes a quiet window after its last message was saved, not
 * after its timestamp (the trigger keeps the service's time, docs/conversations.md).
 */
export function closeTimes(
	c: Case,
	outcome: Outcome,
	bursts: readonly string[][],
): Map<string, number> {
	const byId = new Map(outcome.messages.map((message) => [message.id, message]));
	const closeBy = (members: readonly string[], time: (message: PlannedMessage) => number) => {
		const times = members.map((id) => {
			const message = byId.get(id);
			return message ? time(message) : 0;
		});
		return Math.min(Math.max(...times) + c.quietMs, times[0] + c.longestMs);
	};
	const closes = new Map<string, number>();
	for (const burst of bursts) {
		const close = Math.max(
			closeBy(burst, (message) => message.stampedAt),
			closeBy(burst, (message) => message.savedAt),
		);
		for (const id of burst) closes.set(id, close);
	}
	return closes;
}

/**
 * Finding C', the limit a read's granularity sets: a burst a phone uploads, or one whose clock runs
 * behind (saved more than a quiet window after its timestamp: nothing tells the two apart), closes
 * a quiet window after its last message was saved, which the trigger learns from that message's
 * delivery or from the first read made after the save. When
 * that delivery comes later than the hold less the margin after another delivery of the burst, or
 * reaches another webhook process (a process learns only from the deliveries it receives), only
 * reads tell, one a quiet window apart at most (the bound), so that other delivery may go back
 * (503) once; its retry settles it and the burst runs once and whole (the other rules hold it).
 */
export function uploadTailsUnseen(c: Case, outcome: Outcome, bursts: readonly string[][]) {
	const firstSent = (id: string, process: string) =>
		Math.min(
			...outcome.attempts
				.filter((attempt) => attempt.message === id && attempt.process === process)
				.map((attempt) => attempt.sentAt),
		);
	return (attempt: Outcome['attempts'][number]) => {
		const burst = bursts.find((candidate) => candidate.includes(attempt.message)) ?? [];
		const last = burst[burst.length - 1];
		return (
			savedBehind(c, outcome, burst) &&
			last !== undefined &&
			firstSent(last, attempt.process) > attempt.sentAt + HOLD_MS - CLOSE_MARGIN_MS
		);
	};
}

/** Whether a message of `burst` was saved over a quiet window after its timestamp (C'). */
function savedBehind(c: Case, outcome: Outcome, burst: readonly string[]): boolean {
	return outcome.messages.some(
		(message) => burst.includes(message.id) && message.savedAt - message.stampedAt > c.quietMs,
	);
}
