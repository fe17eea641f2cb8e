import { mayBeAnswer, questionOf } from './answers';
import { burstThrough, type BurstClosedBy, type BurstRules } from './bursts';
import type { TimelineMessage } from './timeline';

/*
 * Catching up what the service saved but never delivered (spec, Delivery 6: an event can be lost
 * between saving a message and queueing its event; a delivery can run out of retries; an endpoint
 * can be disabled). The read a burst already makes shows the chat: a person's message written
 * before the burst, after the account last wrote, that no run holds, is one the bot never saw.
 * Which of them no run holds is the run claim's to know (runClaim.ts, in n8n's processed-data
 * store, shared by every process): this only names the candidates, as bursts, from the one read.
 */

export interface CatchUpWindow {
	/** Only messages at most this old (service time) are caught up. */
	maxAgeMs: number;
	/** Only messages written after this service time (the trigger's activation, with its slack). */
	since: number;
	/** Service time of the catch-up. */
	now: number;
	/**
	 * How far the phone's timestamps run behind the service's clock, as the delivered burst shows it
	 * (its event's queue time less its message's timestamp, at least 0): a clock behind, or an
	 * upload of what it wrote offline.
	 */
	phoneLagMs: number;
	/** The read reaches the conversation's first message (or as far back as is followed). */
	complete: boolean;
	/** Pass Answers to Send and Wait: a message that could answer a question is left (an answer took it, or may have). */
	answers: boolean;
}

export interface MissedBurst {
	messages: TimelineMessage[];
	closedBy: BurstClosedBy;
}

/**
 * The trigger's activation is taken on n8n's clock and the messages' times on the service's: a
 * message written up to this long after the activation may have been written before it. Clocks
 * further apart (the signature check allows five minutes) can catch up a message written before
 * the activation (review R5).
 */
export const ACTIVATION_SLACK_MS = 60_000;

/**
 * A burst closed this long ago on the service's clock (its close by the phone's timestamps plus the
 * phone's lag) whose messages no run holds is taken for missed. A younger one may still be on its
 * way: its run held for a late upload or a quiet window, its delivery handed back and due again at
 * the service's first retry (30 s, ±20 %, after a 10 s time-out), or the rest of it still being
 * uploaded by a phone that was offline. Taking it then would run part of it here and the rest in
 * its own run, split.
 */
export const CATCH_UP_AFTER_MS = 3 * 60_000;

/**
 * The bursts of the chat a burst run (`runIds`) may catch up, oldest first: each person's
 * messages written before the burst, within the window, that the account did not answer, grouped
 * by the trigger's rules (bursts.ts) as their deliveries would have been. A burst still open or
 * closed too recently, or that reaches further back than the read, is left; messages of a burst
 * outside the window are left out of it. The claim keeps each message to one run.
 */
export function missedBursts(
	timeline: readonly TimelineMessage[],
	runIds: readonly string[],
	rules: BurstRules,
	window: CatchUpWindow,
): MissedBurst[] {
	const inRun = new Set(runIds);
	const first = timeline.findIndex((entry) => inRun.has(entry.id));
	if (first < 0) return [];
	return burstsOf(timeline, timeline.slice(0, first), inRun, rules, window);
}

/**
 * The bursts of a chat nothing followed (the Catch-Up poll's read): the person's messages the
 * account did not answer, by the same rules as missedBursts, oldest first.
 */
export function unansweredBursts(
	timeline: readonly TimelineMessage[],
	rules: BurstRules,
	window: CatchUpWindow,
): MissedBurst[] {
	return burstsOf(timeline, timeline, new Set(), rules, window);
}

/**
 * Whether the account answered the burst `messages`: after its last message, the next one by the
 * account or by its author is the account's (a reply typed on the phone, or the bot's). An account
 * message answers the burst it follows, never one its author wrote before that: a burst the person
 * followed with another, met by silence, stays a candidate once the bot answered the later one
 * (review s5, R5-4: a carried run that failed past the claim's waits, "Not run", left it
 * unclaimed, and the bot's answer to the next burst hid it for good). Which candidates ran is the
 * claim's to know.
 */
function answered(timeline: readonly TimelineMessage[], messages: readonly TimelineMessage[]) {
	const last = messages[messages.length - 1];
	const next = timeline
		.slice(timeline.indexOf(last) + 1)
		.find((entry) => entry.fromMe || entry.author === last.author);
	return next?.fromMe === true;
}

/**
 * Whether `entry` could answer a question the read does not reach: it quotes a message older than
 * the read (the trigger's answer route reads back to it, answerRoute.ts withQuoted).
 */
function quotesBeyond(timeline: readonly TimelineMessage[], entry: TimelineMessage): boolean {
	const quoted = entry.message.quoted_message_id;
	return mayBeAnswer(entry) && !!quoted && !timeline.some((candidate) => candidate.id === quoted);
}

/**
 * The closed bursts of a chat (the Catch-Up poll's read) that hold a message that could answer a
 * question, answered by the account or not, oldest first: the poll offers them again when the
 * question still waits (catchUp/answerCatchUp.ts). Each holds its whole burst within the window.
 */
export function answerBursts(
	timeline: readonly TimelineMessage[],
	rules: BurstRules,
	window: CatchUpWindow,
): MissedBurst[] {
	if (!window.answers) return [];
	return burstsOf(timeline, timeline, new Set(), rules, window, true);
}

/**
 * `candidates` grouped into their closed bursts within the window, oldest first: the possible
 * answers' bursts (`ofAnswers`), or the bursts of the other messages the account did not answer.
 */
function burstsOf(
	timeline: readonly TimelineMessage[],
	candidates: readonly TimelineMessage[],
	inRun: ReadonlySet<string>,
	rules: BurstRules,
	window: CatchUpWindow,
	ofAnswers = false,
): MissedBurst[] {
	const inTime = (entry: TimelineMessage) =>
		!entry.fromMe &&
		!inRun.has(entry.id) &&
		entry.at > window.since &&
		window.now - entry.at <= window.maxAgeMs;
	const mayAnswer = (entry: TimelineMessage) =>
		window.answers && (questionOf(timeline, entry) !== undefined || quotesBeyond(timeline, entry));
	const candidate = (entry: TimelineMessage) => inTime(entry) && mayAnswer(entry) === ofAnswers;
	const extent = { complete: window.complete, asOf: window.now };
	const bursts = new Map<string, MissedBurst>();
	for (const entry of candidates.filter(candidate)) {
		const verdict = burstThrough(timeline, entry.id, rules, extent);
		const closedAgo = verdict.kind === 'last' && window.now - verdict.closedAt - window.phoneLagMs;
		if (closedAgo === false || closedAgo < CATCH_UP_AFTER_MS) continue;
		// An answer's question, not the account's next message, says whether it was answered.
		if (!ofAnswers && answered(timeline, verdict.messages)) continue;
		const messages = verdict.messages.filter(ofAnswers ? inTime : candidate);
		const key = messages.map((message) => message.id).join(',');
		if (messages.length > 0) bursts.set(key, { messages, closedBy: verdict.closedBy });
	}
	return [...bursts.values()].sort((a, b) => a.messages[0].at - b.messages[0].at);
}
