import type { TimelineMessage } from '../../shared/conversation/timeline';

/**
 * The person's newest message written before `firstId` (null: none in the read), as a caught-up
 * item names it (caughtUp.ts, answers/earlierAnswer.ts). n8n's record of runs still holding it
 * proves the record reaches back far enough to say that what follows never ran (runClaim.ts).
 */
export function previousPersonMessage(
	timeline: readonly TimelineMessage[],
	firstId: string,
): string | null {
	const index = timeline.findIndex((entry) => entry.id === firstId);
	const before = timeline.slice(0, Math.max(0, index)).filter((entry) => !entry.fromMe);
	return before.length > 0 ? before[before.length - 1].id : null;
}
