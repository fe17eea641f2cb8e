import type { TimelineMessage } from './timeline';

/**
 * Answers in the chat: whether a person's message answers a Send and Wait question, worked out
 * from the conversation's saved messages alone, so every webhook process and a restarted n8n
 * decide alike.
 *
 * - A question is the account's own message holding a signed resume link marked for answers in
 *   chat (`chat=1`): its text is the only record of it the conversation keeps.
 * - A reply quoting a question is meant for that question; a message quoting something else
 *   answers nothing. Otherwise the newest question asked before the message is tried first, then
 *   older ones (a question already answered no longer takes answers, n8n says so).
 * - The account never answers. In a group, when numbers are listed, only those numbers answer.
 * - Approval: the whole text is one of an option's words, ignoring case, spaces and trailing
 *   punctuation. Free text: the first message after the question, or a reply quoting it.
 * - A message written after the question's wait limit answers nothing.
 * - The first answer decides (see answerOf).
 */

/** The link parameter that marks a question's links as taking answers in the chat. */
export const CHAT_PARAMETER = 'chat';
/** The link parameter holding the wait limit (ms since 1970), when there is one. */
export const UNTIL_PARAMETER = 'until';
/** The most questions one message is offered to, newest first. */
export const MAX_CANDIDATES = 3;

export interface ApprovalChoice {
	approved: boolean;
	words: readonly string[];
}

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

/** Emoji presentation selectors and skin tones: a thumbs-up is one word, whatever its tone. */
const EMOJI_MODIFIERS = /\uFE0E|\uFE0F|\p{Emoji_Modifier}/gu;
const TRAILING_PUNCTUATION = /[\s.!?,;:…。！？]+$/u;

/** A text as a word list compares it: case, spacing, trailing punctuation and emoji tone left out. */
export function normalizeAnswer(text: string): string {
	return text
		.normalize('NFKC')
		.replace(EMOJI_MODIFIERS, '')
		.trim()
		.replace(TRAILING_PUNCTUATION, '')
		.replace(/\s+/g, ' ')
		.toLowerCase();
}

/** The option a text chooses, or undefined when it names none (or, ambiguously, several). */
export function approvalOf(text: string, choices: readonly ApprovalChoice[]): boolean | undefined {
	const said = normalizeAnswer(text);
	if (said === '') return undefined;
	const chosen = choices.filter((choice) =>
		choice.words.some((word) => normalizeAnswer(word) === said),
	);
	return chosen.length === 1 ? chosen[0].approved : undefined;
}

/** The signed links in a text that take answers in the chat. */
function chatLinks(text: string): string[] {
	return [...text.matchAll(/https?:\/\/\S+/g)]
		.map(([candidate]) => {
			try {
				return new URL(candidate);
			} catch {
				return undefined;
			}
		})
		.filter(
			(url): url is URL =>
				url?.searchParams.get(CHAT_PARAMETER) === '1' && url.searchParams.has('signature'),
		)
		.map((url) => url.toString());
}

/** The link an answer to this message goes to, when it is a question taking answers in the chat. */
export function questionLink(entry: TimelineMessage): string | undefined {
	if (!entry.fromMe || typeof entry.message.text !== 'string') return undefined;
	return chatLinks(entry.message.text)[0];
}

export interface QuestionCandidate {
	questionId: string;
	link: string;
}

/** The questions `message` may answer, the one to try first first; none for the account's own or without text. */
export function candidateQuestions(
	timeline: readonly TimelineMessage[],
	message: TimelineMessage,
): QuestionCandidate[] {
	if (message.fromMe || (message.message.text ?? '').trim() === '') return [];
	const index = timeline.findIndex((entry) => entry.id === message.id);
	const before = index >= 0 ? timeline.slice(0, index) : timeline;
	const questions = before
		.map((entry) => ({ questionId: entry.id, link: questionLink(entry) }))
		.filter((candidate): candidate is QuestionCandidate => candidate.link !== undefined)
		.reverse();
	const quoted = message.message.quoted_message_id;
	if (quoted) return questions.filter((candidate) => candidate.questionId === quoted);
	return questions.slice(0, MAX_CANDIDATES);
}

function mayAnswer(entry: TimelineMessage, groupNumbers: readonly string[]): boolean {
	if (entry.fromMe) return false;
	if (entry.message.chat_type !== 'group' || groupNumbers.length === 0) return true;
	const phone = digits(entry.message.from?.phone ?? '');
	return phone !== '' && groupNumbers.some((number) => digits(number) === phone);
}

/** What `entry` says to the question by the rules, ignoring where it stands; undefined: nothing. */
function said(
	entry: TimelineMessage,
	questionId: string,
	check: AnswerCheck,
): { approved?: boolean } | undefined {
	if (!mayAnswer(entry, check.groupNumbers)) return undefined;
	if (check.until !== undefined && entry.at > check.until) return undefined;
	const quoted = entry.message.quoted_message_id;
	if (quoted && quoted !== questionId) return undefined;
	const text = typeof entry.message.text === 'string' ? entry.message.text : '';
	if (check.rules.kind === 'freeText') return text.trim() === '' ? undefined : {};
	const approved = approvalOf(text, check.rules.choices);
	return approved === undefined ? undefined : { approved };
}

/**
 * The answer `messageId` gives to the question `questionId`, or undefined when the saved messages
 * do not back one: either message missing, the answer not after the question or past its wait
 * limit, from someone who may not answer, quoting another message, or not an answer by the rules.
 * The first answer decides: an earlier message that answered the question (quoting it, or written
 * before any newer question took the newest place) leaves nothing for a later one, so two replies
 * at once resume it once whatever n8n does with two requests. Free text takes a reply quoting the
 * question even so.
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
	const question = timeline[questionAt];
	const entry = timeline[answerAt];
	if (entry.message.conversation_id !== question.message.conversation_id) return undefined;
	const verdict = said(entry, questionId, check);
	if (!verdict) return undefined;
	const newer = timeline.findIndex((other, at) => at > questionAt && questionLink(other));
	const earlier = timeline.slice(questionAt + 1, answerAt).some((other, offset) => {
		const at = questionAt + 1 + offset;
		const first = other.message.quoted_message_id === questionId || newer < 0 || at < newer;
		return first && said(other, questionId, check) !== undefined;
	});
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
