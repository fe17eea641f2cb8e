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

const normalize = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/** Letters and digits of any script: what a hand-over word may not touch on either side. */
const WORD_CHARACTER = /[\p{L}\p{N}_]/u;
/** Scripts written without spaces between words: there, a word's neighbours are letters too. */
const UNSPACED_SCRIPT =
	/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Whether `outside` next to `inside` (the phrase's own first or last character) joins them into one word. */
const joins = (outside: string | undefined, inside: string) =>
	outside !== undefined &&
	WORD_CHARACTER.test(outside) &&
	!(UNSPACED_SCRIPT.test(outside) || UNSPACED_SCRIPT.test(inside));

function containsPhrase(text: string, phrase: string): boolean {
	let from = text.indexOf(phrase);
	while (from >= 0) {
		const before = text[from - 1];
		const after = text[from + phrase.length];
		if (!joins(before, phrase[0]) && !joins(after, phrase[phrase.length - 1])) return true;
		from = text.indexOf(phrase, from + 1);
	}
	return false;
}

function signalOf(entry: TimelineMessage, rules: TakeoverRules): Signal {
	const text = typeof entry.message.text === 'string' ? normalize(entry.message.text) : '';
	if (text === '') return undefined;
	if (entry.fromMe) {
		if (text === normalize(rules.pauseCommand)) return 'pause';
		if (text === normalize(rules.resumeCommand)) return 'resume';
		return undefined;
	}
	return rules.handoverWords.some((word) => {
		const phrase = normalize(word);
		return phrase !== '' && containsPhrase(text, phrase);
	})
		? 'handover'
		: undefined;
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
