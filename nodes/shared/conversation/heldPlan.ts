import { burstOf, type BurstRules } from './bursts';
import { mergeTimelines, type TimelineMessage } from './timeline';

/**
 * What a webhook process can tell from the messages it holds alone, before it reads the
 * conversation: which of them a later held message of the same burst follows (their deliveries
 * can be answered now: the later one's delivery stays unanswered and carries the burst through a
 * restart), and the service time at which one read can settle the rest.
 */
export interface HeldPlan {
	/** Held messages that a later held message of the same burst follows. */
	handedOver: string[];
	/** Service time of the next read: `asOf` when one of them may be its burst's last already. */
	readAt: number;
}

export function planHeld(
	held: readonly TimelineMessage[],
	rules: BurstRules,
	asOf: number,
): HeldPlan {
	const timeline = mergeTimelines([], held);
	const handedOver: string[] = [];
	let readAt = Number.POSITIVE_INFINITY;
	for (const entry of timeline) {
		const verdict = burstOf(timeline, entry.id, rules, { complete: true, asOf });
		if (verdict.kind === 'notLast') handedOver.push(entry.id);
		else readAt = Math.min(readAt, verdict.kind === 'wait' ? verdict.until : asOf);
	}
	return { handedOver, readAt };
}
