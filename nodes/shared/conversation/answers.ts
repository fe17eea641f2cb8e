import { choiceOf, type ApprovalChoice } from './answerWords';
import { questionLink } from './questionLinks';
import type { TimelineMessage } from './timeline';

/**
 * Answers in the chat: whether a person's message answers a Send and Wait question, worked out
 * from the conversation's saved messages alone, so every webhook process, every copy of a delivery
 * and a restarted n8n decide alike. One rule, checked where the answer is taken (the Send and Wait
 * node), so no order of offers can make one reply resume two executions:
 *
 * - Which question: a reply quoting a question answers that question, however far back; a reply
 *   quoting anything else answers nothing. An unquoted reply can answer only the chat's newest
 *   question before it; when that one no longer waits, it answers nothing.
 * - What counts: the option's number ("1", "2") while the question is the newest; its words
 *   (the label, "yes", 👍) and free text only before the account writes anything after the
 *   question, or quoting it. So a reply bot's "Anything else?" followed by "ok" approves nothing.
 * - Who: never the account; in a group, only the listed numbers when there are any.
 * - When: not after the question's wait limit.
 * - Once: the first answer decides (see answerOf).
 */

export type { ApprovalChoice } from './answerWords';

/** How far back a question is looked for (a quoted one may be far back): ten pages, about 500 messages. */
export const QUESTION_PAGES = 10;

export type AnswerRules =
	| { kind: 'approval'; choices: readonly ApprovalChoice[] }
	| { kind: 'freeText' };

export interface AnswerCheck {
	rules: AnswerRules;
	/** Who may answer in a group; empty: any member. Compared by digits. */
	groupNumbers: readonly string[];
	/** The wait limit, ms since 1970; undefined: none. */
	until?: number;
}

export interface ChatAnswer {
	messageId: string;
	text: string;
	/** When the answer was written (ISO 8601). */
	at: string;
	approved?: boolean;
	from?: { phone?: string; name?: string };
}

const digits = (phone: string) => phone.replace(/\D/g, '');

/** Where in `timeline` the newest question before position `end` stands; -1: none. */
function newestQuestionBefore(timeline: readonly TimelineMessage[], end: number): number {
	for (let at = end - 1; at >= 0; at--) if (questionLink(timeline[at])) return at;
	return -1;
}

export interface QuestionCandidate {
	questionId: string;
	link: string;
}

/**
 * The one question `message` may answer: the quoted one, else the newest before it; none for the
 * account's own messages, messages without text, or a quote of anything but a question.
 */
export function candidateQuestion(
	timeline: readonly TimelineMessage[],
	message: TimelineMessage,
): QuestionCandidate | undefined {
	if (message.fromMe || (message.message.text ?? '').trim() === '') return undefined;
	const index = timeline.findIndex((entry) => entry.id === message.id);
	const end = index >= 0 ? index : timeline.length;
	const quoted = message.message.quoted_message_id;
	const at = quoted
		? timeline.slice(0, end).findIndex((entry) => entry.id === quoted)
		: newestQuestionBefore(timeline, end);
	const link = at >= 0 ? questionLink(timeline[at]) : undefined;
	return link ? { questionId: timeline[at].id, link } : undefined;
}

function mayAnswer(entry: TimelineMessage, groupNumbers: readonly string[]): boolean {
	if (entry.fromMe) return false;
	if (entry.message.chat_type !== 'group' || groupNumbers.length === 0) return true;
	const phone = digits(entry.message.from?.phone ?? '');
	return phone !== '' && groupNumbers.some((number) => digits(number) === phone);
}

/**
 * What the message at `at` says to the question at `questionAt` by the rules, where it stands;
 * undefined: nothing.
 */
function said(
	timeline: readonly TimelineMessage[],
	questionAt: number,
	at: number,
	check: AnswerCheck,
): { approved?: boolean } | undefined {
	const entry = timeline[at];
	if (!mayAnswer(entry, check.groupNumbers)) return undefined;
	if (check.until !== undefined && entry.at > check.until) return undefined;
	const quoted = entry.message.quoted_message_id;
	if (quoted && quoted !== timeline[questionAt].id) return undefined;
	if (!quoted && newestQuestionBefore(timeline, at) !== questionAt) return undefined;
	const between = timeline.slice(questionAt + 1, at);
	const wordsCount = Boolean(quoted) || !between.some((other) => other.fromMe);
	const text = typeof entry.message.text === 'string' ? entry.message.text : '';
	if (check.rules.kind === 'freeText') return wordsCount && text.trim() !== '' ? {} : undefined;
	const choice = choiceOf(text, check.rules.choices);
	if (!choice || !(choice.byNumber || wordsCount)) return undefined;
	return { approved: choice.approved };
}

/**
 * The answer `messageId` gives to the question `questionId`, or undefined when the saved messages
 * do not back one: either message missing, the answer not after the question or past its wait
 * limit, from someone who may not answer, meant for another question, or not an answer by the
 * rules. The first answer decides: an earlier message that answered the question leaves nothing
 * for a later one, so two replies at once resume it once whatever n8n does with two requests. Free
 * text takes a reply quoting the question even so.
 */
export function answerOf(
	timeline: readonly TimelineMessage[],
	questionId: string,
	messageId: string,
	check: AnswerCheck,
): ChatAnswer | undefined {
	const questionAt = timeline.findIndex((entry) => entry.id === questionId && entry.fromMe);
	const answerAt = timeline.findIndex((entry) => entry.id === messageId);
	if (questionAt < 0 || answerAt <= questionAt) return undefined;
	const entry = timeline[answerAt];
	if (entry.message.conversation_id !== timeline[questionAt].message.conversation_id)
		return undefined;
	const verdict = said(timeline, questionAt, answerAt, check);
	if (!verdict) return undefined;
	let earlier = false;
	for (let at = questionAt + 1; at < answerAt && !earlier; at++)
		earlier = said(timeline, questionAt, at, check) !== undefined;
	const quoting = entry.message.quoted_message_id === questionId;
	if (earlier && !(check.rules.kind === 'freeText' && quoting)) return undefined;
	return {
		messageId,
		text: typeof entry.message.text === 'string' ? entry.message.text : '',
		at: new Date(entry.at).toISOString(),
		from: entry.message.from,
		...verdict,
	};
}
