import { asksBack, choiceOf, type ApprovalChoice } from './answerWords';
import { questionLink } from './questionLinks';
import type { TimelineMessage } from './timeline';

/**
 * Answers in the chat: whether a person's message answers a Send and Wait question, worked out
 * from the conversation's saved messages alone, so every webhook process, every copy of a delivery
 * and a restarted n8n decide alike. The trigger (which messages to offer) and the Send and Wait
 * node (whether to resume) call the same functions, so they cannot disagree:
 *
 * - Which question (questionOf): a reply quoting a question answers that question, however far
 *   back; a reply quoting anything else answers nothing. An unquoted reply answers only the
 *   account's last message before it, and only when that message is a question taking answers in
 *   the chat. Any later message of the account (a bot's reply, a question without Answer in Chat,
 *   a Custom Form, a template without the links) means the account wrote after the question: from
 *   then on only a reply quoting it answers it, numbers and words alike.
 * - What counts: the option's number ("1", "2"), its words (the label, "yes", 👍), or for free
 *   text any text; never a reply with a question mark ("1?", "yes?"): it asks back.
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

/** Whether a message could answer some question: a person's text that asks nothing back. */
export function mayBeAnswer(message: TimelineMessage): boolean {
	const text = typeof message.message.text === 'string' ? message.message.text : '';
	return !message.fromMe && text.trim() !== '' && !asksBack(text);
}

export interface QuestionCandidate {
	questionId: string;
	link: string;
}

/**
 * The one question `message` can answer: the quoted one, else the account's last message before
 * it; none when that is no question taking answers in the chat, for the account's own messages,
 * messages without text, and messages asking back (a question mark).
 */
export function questionOf(
	timeline: readonly TimelineMessage[],
	message: TimelineMessage,
): QuestionCandidate | undefined {
	if (!mayBeAnswer(message)) return undefined;
	const index = timeline.findIndex((entry) => entry.id === message.id);
	const before = timeline.slice(0, index >= 0 ? index : timeline.length);
	const quoted = message.message.quoted_message_id;
	const question = quoted
		? before.find((entry) => entry.id === quoted)
		: [...before].reverse().find((entry) => entry.fromMe);
	const link = question ? questionLink(question) : undefined;
	return question && link ? { questionId: question.id, link } : undefined;
}

/** The account's messages that are questions taking answers in the chat, newest first. */
export function questionsInChat(timeline: readonly TimelineMessage[]): QuestionCandidate[] {
	return timeline
		.map((entry) => ({ questionId: entry.id, link: questionLink(entry) }))
		.filter((question): question is QuestionCandidate => question.link !== undefined)
		.reverse();
}

function mayAnswer(entry: TimelineMessage, groupNumbers: readonly string[]): boolean {
	if (entry.fromMe) return false;
	if (entry.message.chat_type !== 'group' || groupNumbers.length === 0) return true;
	const phone = digits(entry.message.from?.phone ?? '');
	return phone !== '' && groupNumbers.some((number) => digits(number) === phone);
}

/** What the message at `at` says to the question `questionId` by the rules; undefined: nothing. */
function said(
	timeline: readonly TimelineMessage[],
	questionId: string,
	at: number,
	check: AnswerCheck,
): { approved?: boolean } | undefined {
	const entry = timeline[at];
	if (!mayAnswer(entry, check.groupNumbers)) return undefined;
	if (check.until !== undefined && entry.at > check.until) return undefined;
	if (questionOf(timeline, entry)?.questionId !== questionId) return undefined;
	const text = typeof entry.message.text === 'string' ? entry.message.text : '';
	if (check.rules.kind === 'freeText') return {};
	const choice = choiceOf(text, check.rules.choices);
	return choice ? { approved: choice.approved } : undefined;
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
	const verdict = said(timeline, questionId, answerAt, check);
	if (!verdict) return undefined;
	let earlier = false;
	for (let at = questionAt + 1; at < answerAt && !earlier; at++)
		earlier = said(timeline, questionId, at, check) !== undefined;
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
