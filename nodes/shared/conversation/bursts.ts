import type { TimelineMessage } from './timeline';

/**
 * How a person's quick messages are grouped into one turn ("burst"). The grouping is a pure
 * function of the conversation's saved messages, their own timestamps and the service time up to
 * which they were read, never of when or where a delivery arrived: every webhook process that
 * reads the same messages draws the same lines, so exactly one of them, the one holding a burst's
 * last message, starts the run.
 *
 * - A chain is one author's messages with at most `quietMs` between neighbours; another author's
 *   message does not break it (group chats), the account's own message does.
 * - A chain is cut into bursts from its first message on: a burst takes every message written
 *   less than `longestMs` after its first one, and the next message starts the next burst.
 * - A burst closes when its quiet window has passed or its longest wait is reached, whichever
 *   comes first: a person who keeps typing gets the run at the longest wait, not a quiet window later.
 */
export interface BurstRules {
	quietMs: number;
	longestMs: number;
}

export type BurstClosedBy = 'quiet_window' | 'longest_wait' | 'own_message';

export type BurstVerdict =
	| {
			kind: 'last';
			messages: TimelineMessage[];
			closedBy: BurstClosedBy;
			/** Service time the burst closed: its quiet window passed, its longest wait came, or the account wrote. */
			closedAt: number;
	  }
	| { kind: 'notLast' }
	/** Nothing written after the message yet, and its burst is still open until `until` (service time). */
	| { kind: 'wait'; until: number }
	/** The chain may reach further back than the messages read: read older ones and ask again. */
	| { kind: 'needOlder' };

export interface TimelineExtent {
	/** The timeline starts at the conversation's first saved message (or as far back as is followed). */
	complete: boolean;
	/** Service time up to which the timeline holds every message written. */
	asOf: number;
}

/**
 * The message `messageId`, and the account's messages and its author's own, oldest first: what
 * decides its author's bursts. Undefined when the timeline does not hold it.
 */
function authorView(
	timeline: readonly TimelineMessage[],
	messageId: string,
): { target: TimelineMessage; entries: TimelineMessage[]; index: number } | undefined {
	const target = timeline.find((entry) => entry.id === messageId);
	if (!target) return undefined;
	const entries = timeline.filter((entry) => entry.fromMe || entry.author === target.author);
	return { target, entries, index: entries.indexOf(target) };
}

function chainStart(entries: readonly TimelineMessage[], index: number, quietMs: number): number {
	let start = index;
	while (
		start > 0 &&
		!entries[start - 1].fromMe &&
		entries[start].at - entries[start - 1].at <= quietMs
	)
		start--;
	return start;
}

/** When a burst whose newest message is `last` closes: the quiet window passed or the longest wait reached. */
export function closesAt(first: TimelineMessage, last: TimelineMessage, rules: BurstRules): number {
	return Math.min(last.at + rules.quietMs + 1, first.at + rules.longestMs);
}

/**
 * What ended the burst whose last message is `target`; `next` is the author's or account's next
 * message. The account's message ends it only when written before the burst closed by itself: one
 * written later changes neither how nor when it closed, so every read of the burst, before or after
 * the account wrote, draws the same close (a message queued after it still starts its run).
 */
function closingOf(
	first: TimelineMessage,
	target: TimelineMessage,
	next: TimelineMessage | undefined,
	rules: BurstRules,
): { closedBy: BurstClosedBy; closedAt: number } {
	const closedAt = closesAt(first, target, rules);
	if (next?.fromMe && next.at < closedAt) return { closedBy: 'own_message', closedAt: next.at };
	const quietPassed =
		next && !next.fromMe
			? next.at - target.at > rules.quietMs
			: target.at + rules.quietMs + 1 < first.at + rules.longestMs;
	return { closedBy: quietPassed ? 'quiet_window' : 'longest_wait', closedAt };
}

/**
 * The verdict for `messageId` in `timeline` (oldest first). Without `extent.complete`, a chain
 * that starts within `quietMs` of the oldest message read may reach further back.
 */
export function burstOf(
	timeline: readonly TimelineMessage[],
	messageId: string,
	rules: BurstRules,
	extent: TimelineExtent,
): BurstVerdict {
	const view = authorView(timeline, messageId);
	if (!view) return { kind: 'notLast' };
	const { target, entries, index } = view;
	const start = chainStart(entries, index, rules.quietMs);
	if (!extent.complete && timeline[0].at >= entries[start].at - rules.quietMs)
		return { kind: 'needOlder' };
	let burstStart = start;
	for (let position = start + 1; position <= index; position++) {
		if (entries[position].at - entries[burstStart].at >= rules.longestMs) burstStart = position;
	}
	const first = entries[burstStart];
	const next = entries[index + 1];
	if (!next) {
		const until = closesAt(first, target, rules);
		if (extent.asOf < until) return { kind: 'wait', until };
	} else if (
		!next.fromMe &&
		next.at - target.at <= rules.quietMs &&
		next.at - first.at < rules.longestMs
	) {
		return { kind: 'notLast' };
	}
	return {
		kind: 'last',
		messages: entries.slice(burstStart, index + 1),
		...closingOf(first, target, next, rules),
	};
}

/**
 * The verdict of the burst `messageId` belongs to: its own, or, when a later message of its
 * author follows it within the burst, that of the first such message that is not followed.
 */
export function burstThrough(
	timeline: readonly TimelineMessage[],
	messageId: string,
	rules: BurstRules,
	extent: TimelineExtent,
): BurstVerdict {
	const view = authorView(timeline, messageId);
	if (!view) return { kind: 'notLast' };
	for (const entry of view.entries.slice(view.index)) {
		const verdict = burstOf(timeline, entry.id, rules, extent);
		if (verdict.kind !== 'notLast') return verdict;
	}
	return { kind: 'notLast' };
}
