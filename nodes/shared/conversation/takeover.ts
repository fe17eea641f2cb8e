import { containsHandoverWord, normalizeText } from './handoverWords';
import { closesAt, type BurstRules } from './bursts';
import type { TimelineMessage } from './timeline';

/**
 * Human takeover: whether the bot is paused in a conversation, worked out from the conversation's
 * saved messages alone (nothing kept in memory or static data), so every webhook process and a
 * restarted n8n decide alike.
 *
 * - The account's own message whose whole text is the pause command pauses the conversation; the
 *   resume command ends the pause. Only own messages count: a person cannot pause the bot.
 * - A person's message holding a hand-over word or phrase pauses the conversation from that message
 *   on. In a group chat the pause is the conversation's, whoever asked: one bot voice answering
 *   while a member of staff talks to the group is what takeover exists to prevent.
 * - The latest command or hand-over decides, however many messages came since; a pause ends
 *   `resumeAfterMs` after it was set (0: only the resume command ends it). Times are the messages'
 *   own timestamps, never a clock, so the answer does not depend on when it is asked.
 */
export interface TakeoverRules {
	pauseCommand: string;
	resumeCommand: string;
	/** Words or phrases, each matched as a whole, in any case. */
	handoverWords: string[];
	/** 0: only the resume command ends a pause. */
	resumeAfterMs: number;
}

/** How many of a conversation's newest saved messages takeover needs read: the service's largest page. */
export const TAKEOVER_LOOKBACK = 100;

export type PauseState =
	| { paused: false }
	| {
			paused: true;
			by: 'command' | 'handover';
			/** When the pause was set: the pausing message's time (ISO 8601). */
			since: string;
			/** When it ends unless resumed sooner; null when only the resume command ends it. */
			until: string | null;
			/** The message that paused the conversation, and its text. */
			message_id: string;
			text: string;
	  };

type Signal = 'pause' | 'resume' | 'handover' | undefined;

function signalOf(entry: TimelineMessage, rules: TakeoverRules): Signal {
	const text = typeof entry.message.text === 'string' ? normalizeText(entry.message.text) : '';
	if (text === '') return undefined;
	if (entry.fromMe) {
		if (text === normalizeText(rules.pauseCommand)) return 'pause';
		if (text === normalizeText(rules.resumeCommand)) return 'resume';
		return undefined;
	}
	return containsHandoverWord(text, rules.handoverWords) ? 'handover' : undefined;
}

/**
 * The conversation's pause state as of the message `messageId` (that message included: a hand-over
 * message is itself paused), from the messages read, oldest first. A message not in the timeline
 * is judged as of the newest message read.
 */
export function pauseAt(
	timeline: readonly TimelineMessage[],
	messageId: string,
	rules: TakeoverRules,
): PauseState {
	const found = timeline.findIndex((entry) => entry.id === messageId);
	const index = found >= 0 ? found : timeline.length - 1;
	const now = timeline[index]?.at ?? 0;
	for (let position = index; position >= 0; position--) {
		const entry = timeline[position];
		// Anything older than Resume After is over, pauses and resumes alike.
		if (rules.resumeAfterMs > 0 && now - entry.at >= rules.resumeAfterMs) break;
		const signal = signalOf(entry, rules);
		if (signal === 'resume') break;
		if (signal === undefined) continue;
		return {
			paused: true,
			by: signal === 'pause' ? 'command' : 'handover',
			since: new Date(entry.at).toISOString(),
			until:
				rules.resumeAfterMs > 0 ? new Date(entry.at + rules.resumeAfterMs).toISOString() : null,
			message_id: entry.id,
			text: entry.message.text ?? '',
		};
	}
	return { paused: false };
}

/**
 * Where a burst's pause is judged: at the account's newest message typed while the burst waited
 * out its quiet window (a command then stops the bot for that burst too), before its author wrote
 * again and before the burst closed (bursts.ts closesAt: its Longest Wait too), on the service's
 * clock: by the phone's timestamps, or from when the service had it (`lagMs`, a late upload or a
 * clock behind), as the trigger waits. Else, and ungrouped (no `rules`), at its last message. Only
 * those: a read made later (a late delivery) holds the account's later messages too, and the chat
 * as the burst left it must not change with the read.
 */
export function burstPauseAt(
	timeline: readonly TimelineMessage[],
	ids: readonly string[],
	rules: BurstRules | undefined,
	lagMs = 0,
): string {
	const last = ids[ids.length - 1];
	const first = timeline.find((entry) => entry.id === ids[0]);
	const index = timeline.findIndex((entry) => entry.id === last);
	if (index < 0 || !first || !rules) return last;
	const { at, author } = timeline[index];
	const close = closesAt(first, timeline[index], rules);
	const lag = Math.max(0, lagMs);
	// By the phone's stamps, or once the service had the message: not while the phone was offline,
	// when the account could not have seen it yet.
	const waiting = (when: number) => when < close || (when >= at + lag && when < close + lag);
	let pauseAt = last;
	for (const entry of timeline.slice(index + 1)) {
		if (entry.at >= close + lag || (!entry.fromMe && entry.author === author)) break;
		if (entry.fromMe && waiting(entry.at)) pauseAt = entry.id;
	}
	return pauseAt;
}
