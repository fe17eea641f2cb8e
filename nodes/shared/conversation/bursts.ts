import type { TimelineMessage } from './timeline';

/**
 * How a person's quick messages are grouped into one turn ("burst"). The grouping is a pure
 * function of the conversation's saved messages and their own timestamps, never of when or where
 * a delivery arrived: every webhook process that reads the same messages draws the same lines, so
 * exactly one of them, the one holding a burst's last message, starts the run.
 *
 * - A chain is one author's messages with at most `quietMs` between neighbours; another author's
 *   message does not break it (group chats), the account's own message does.
 * - A chain is cut into bursts from its first message on: a burst takes every message written
 *   less than `longestMs` after its first one, and the next message starts the next burst.
 */
export interface BurstRules {
	quietMs: number;
	longestMs: number;
}

export type BurstClosedBy = 'quiet_window' | 'longest_wait' | 'own_message';

export type BurstVerdict =
	| { kind: 'last'; messages: TimelineMessage[]; closedBy: BurstClosedBy }
	| { kind: 'notLast' }
	/** The chain may reach further back than the messages read: read older ones and ask again. */
	| { kind: 'needOlder' };

/** The account's messages and the author's own, oldest first: what decides the author's bursts. */
function relevantTo(timeline: readonly TimelineMessage[], author: string): TimelineMessage[] {
	return timeline.filter((entry) => entry.fromMe || entry.author === author);
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

/**
 * The verdict for `messageId` in `timeline` (oldest first). `complete` says the timeline starts at
 * the conversation's first saved message; otherwise a chain that starts within `quietMs` of the
 * oldest message read may reach further back.
 */
export function burstOf(
	timeline: readonly TimelineMessage[],
	messageId: string,
	rules: BurstRules,
	complete: boolean,
): BurstVerdict {
	const target = timeline.find((entry) => entry.id === messageId);
	if (!target) return { kind: 'notLast' };
	const entries = relevantTo(timeline, target.author);
	const index = entries.indexOf(target);
	const start = chainStart(entries, index, rules.quietMs);
	if (!complete && timeline[0].at >= entries[start].at - rules.quietMs)
		return { kind: 'needOlder' };
	let burstStart = start;
	for (let position = start + 1; position <= index; position++) {
		if (entries[position].at - entries[burstStart].at >= rules.longestMs) burstStart = position;
	}
	const next = entries[index + 1];
	if (
		next &&
		!next.fromMe &&
		next.at - target.at <= rules.quietMs &&
		next.at - entries[burstStart].at < rules.longestMs
	) {
		return { kind: 'notLast' };
	}
	const closedBy: BurstClosedBy =
		!next || next.at - target.at > rules.quietMs
			? 'quiet_window'
			: next.fromMe
				? 'own_message'
				: 'longest_wait';
	return { kind: 'last', messages: entries.slice(burstStart, index + 1), closedBy };
}
