/**
 * The Send and Wait questions of a case and the answers the spec's rule expects, drawn without the
 * nodes' code: a "1" or "2" answers the question it quotes, else the newest question before it in
 * its chat; a question takes its first answer only; "why?" answers nothing.
 */
import type { Case, PlannedMessage } from './scenario';
import type { SavedMessage } from './service';
import { questionLink } from './waitingExecutions';

export interface PlannedQuestion {
	id: string;
	person: number;
	/** Its timestamp and save time: the account's clock is right (case time). */
	at: number;
	execution: string;
	key: string;
}

/**
 * Cases so far: a question's id and execution are new in every case, as a service's message ids
 * and n8n's execution ids are, so what a module instance remembers of one case's questions (Send
 * and Wait's answer claims) never meets another case's.
 */
let casesPlanned = 0;

export function plannedQuestions(c: Case, messages: readonly PlannedMessage[]): PlannedQuestion[] {
	const serial = ++casesPlanned;
	return (c.answers?.questions ?? []).flatMap((question, index) => {
		const after = messages[Math.max(0, question.afterMessage)];
		if (!after) return [];
		const at =
			question.afterMessage < 0
				? after.typedAt - question.delayMs
				: after.typedAt + question.delayMs;
		return [
			{
				id: `q${index + 1}-${serial}`,
				person: after.person,
				at,
				execution: `exec${index + 1}-${serial}`,
				key: `key-q${index + 1}-${serial}`,
			},
		];
	});
}

/** The service's saved questions; the replies' texts and quotes written into the person's messages. */
export function questionMessages(
	c: Case,
	questions: readonly PlannedQuestion[],
	saved: SavedMessage[],
	start: number,
): SavedMessage[] {
	for (const reply of c.answers?.replies ?? []) {
		const message = saved[reply.message];
		if (!message) continue;
		message.text = reply.text;
		const quoted = reply.quotes === undefined ? undefined : questions[reply.quotes];
		// A reply can quote only a question already in its chat.
		if (quoted?.person === message.person && start + quoted.at < message.stampedAt)
			message.quotedId = quoted.id;
	}
	return questions.map((question) => ({
		id: question.id,
		person: question.person,
		text: `Refund 20 EUR? Reply 1 to Approve or 2 to Decline ${questionLink(question.execution, question.key)}`,
		stampedAt: start + question.at,
		savedAt: start + question.at,
		fromMe: true,
		sendKey: question.key,
	}));
}

/**
 * Whether the account's message at `at` comes before the person's `message` in the chat: stamped
 * earlier, or with the same timestamp and saved first (the service lists the later saved first,
 * and the nodes read them in that order).
 */
const writtenBefore = (at: number, message: PlannedMessage) =>
	at < message.stampedAt || (at === message.stampedAt && at < message.savedAt);

/**
 * Which question each answering message answers, by the rule (message id → question id): the
 * quoted question; unquoted, the newest question of its chat, only while the account has not
 * written after it (`own`: the account's messages, the questions among them, in case time).
 */
export function expectedAnswers(
	messages: readonly PlannedMessage[],
	saved: readonly SavedMessage[],
	questions: readonly PlannedQuestion[],
	own: readonly { id?: string; person: number; at: number }[] = [],
): Map<string, string> {
	const answered = new Map<string, string>();
	const taken = new Set<string>();
	const byStamp = [...messages].sort((a, b) => a.stampedAt - b.stampedAt || a.index - b.index);
	for (const message of byStamp) {
		const text = saved[message.index]?.text;
		if (text !== '1' && text !== '2') continue;
		const quoted = saved[message.index]?.quotedId;
		const asked = questions
			.filter(
				(question) => question.person === message.person && writtenBefore(question.at, message),
			)
			.sort((a, b) => a.at - b.at);
		const newest = asked[asked.length - 1];
		const wroteAfter =
			newest !== undefined &&
			own.some(
				(entry) =>
					entry.person === message.person &&
					// The service saves the account's other messages after the questions in the same
					// millisecond (world.ts writes them later), and lists them so.
					(entry.at > newest.at ||
						(entry.at === newest.at && !questions.some((question) => question.id === entry.id))) &&
					writtenBefore(entry.at, message),
			);
		const question = quoted
			? questions.find((candidate) => candidate.id === quoted)
			: wroteAfter
				? undefined
				: newest;
		if (!question || taken.has(question.id)) continue;
		taken.add(question.id);
		answered.set(message.id, question.id);
	}
	return answered;
}
