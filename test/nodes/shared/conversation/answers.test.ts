import { describe, expect, it } from 'vitest';

import {
	answerOf,
	approvalOf,
	candidateQuestions,
	normalizeAnswer,
	type AnswerCheck,
	type ApprovalChoice,
} from '../../../../nodes/shared/conversation/answers';
import { timelineOf, type TimelineMessage } from '../../../../nodes/shared/conversation/timeline';

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const iso = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const link = (key: string, chat = true) =>
	`https://n8n.example/webhook-waiting/41/node-1?q=${key}${chat ? '&chat=1' : ''}&approved=true&signature=${'a'.repeat(64)}`;

interface Entry {
	id: string;
	/** Minutes after T0. */
	at: number;
	text?: string;
	me?: boolean;
	from?: string;
	quotes?: string;
	group?: boolean;
}

/** Messages as get_messages answers them (newest first). */
function timeline(entries: Entry[]): TimelineMessage[] {
	const messages = entries.map(
		({ id, at, text = id, me = false, from = '4915100', quotes, group }) => ({
			id,
			conversation_id: 'chat',
			chat_type: group ? 'group' : 'individual',
			from: { phone: from },
			from_me: me,
			text,
			quoted_message_id: quotes ?? null,
			timestamp: iso(at),
		}),
	);
	return timelineOf({ messages: messages.reverse() });
}

const CHOICES: ApprovalChoice[] = [
	{ approved: true, words: ['1', 'Approve', 'yes', 'ok', '👍'] },
	{ approved: false, words: ['2', 'Decline', 'no', '👎'] },
];
const APPROVAL: AnswerCheck = { rules: { kind: 'approval', choices: CHOICES }, groupNumbers: [] };
const FREE_TEXT: AnswerCheck = { rules: { kind: 'freeText' }, groupNumbers: [] };

describe('approvalOf: the whole text is one option word', () => {
	it.each([
		['1', true],
		['2', false],
		[' YES! ', true],
		['Yes.', true],
		['  approve  ', true],
		['DECLINE!!', false],
		['no…', false],
		['👍', true],
		['👍🏽', true],
		['👍️', true],
		['👎', false],
	])('%j → %s', (text, approved) => {
		expect(approvalOf(text, CHOICES)).toBe(approved);
	});

	it.each(['why?', 'one moment', 'yes please', '12', '1 2', '', '   ', '!', 'okay maybe'])(
		'%j answers nothing',
		(text) => {
			expect(approvalOf(text, CHOICES)).toBeUndefined();
		},
	);

	it('a word listed for both options answers nothing', () => {
		expect(
			approvalOf('ok', [
				{ approved: true, words: ['ok'] },
				{ approved: false, words: ['OK'] },
			]),
		).toBeUndefined();
	});

	it('normalizes case, inner spaces and trailing punctuation, not leading text', () => {
		expect(normalizeAnswer('  Go   Ahead!?  ')).toBe('go ahead');
		expect(normalizeAnswer('¿sí?')).toBe('¿sí');
	});
});

describe('candidateQuestions: which questions a message is offered to', () => {
	const chat = timeline([
		{ id: 'q-old', at: 0, me: true, text: `Refund 1?\n\nApprove: ${link('k1')}` },
		{ id: 'plain', at: 1, me: true, text: `See ${link('k0', false)}` },
		{ id: 'q-new', at: 2, me: true, text: `Refund 2?\n\nApprove: ${link('k2')}` },
		{ id: 'answer', at: 3, text: '1' },
		{ id: 'quoting-old', at: 4, text: '1', quotes: 'q-old' },
		{ id: 'quoting-other', at: 5, text: '1', quotes: 'plain' },
		{ id: 'mine', at: 6, me: true, text: '1' },
		{ id: 'photo', at: 7, text: '' },
	]);
	const offered = (id: string) =>
		candidateQuestions(chat, chat.find((entry) => entry.id === id) as TimelineMessage).map(
			(candidate) => candidate.questionId,
		);

	it('newest question first, then older ones; a link without chat=1 is no question', () => {
		expect(offered('answer')).toEqual(['q-new', 'q-old']);
	});

	it('a reply quoting a question goes to that question only; quoting anything else, to none', () => {
		expect(offered('quoting-old')).toEqual(['q-old']);
		expect(offered('quoting-other')).toEqual([]);
	});

	it("the account's own messages and messages without text are offered nowhere", () => {
		expect(offered('mine')).toEqual([]);
		expect(offered('photo')).toEqual([]);
	});

	it('gives the link of the question to post to', () => {
		const [first] = candidateQuestions(chat, chat[3]);
		expect(first.link).toBe(link('k2'));
	});

	it('offers only questions asked before the message', () => {
		expect(offered('answer')).not.toContain('quoting-old');
		const early = timeline([
			{ id: 'early', at: 0, text: '1' },
			{ id: 'q', at: 1, me: true, text: `Ok? ${link('k')}` },
		]);
		expect(candidateQuestions(early, early[0])).toEqual([]);
	});
});

describe('answerOf: what the saved messages back', () => {
	const question = { id: 'q', at: 0, me: true, text: `Refund? ${link('k')}` };

	it.each([
		['1', true],
		['2', false],
		[' YES! ', true],
	])('approval: %j after the question answers it', (text, approved) => {
		const chat = timeline([question, { id: 'why', at: 1, text: 'why?' }, { id: 'a', at: 2, text }]);
		expect(answerOf(chat, 'q', 'why', APPROVAL)).toBeUndefined();
		expect(answerOf(chat, 'q', 'a', APPROVAL)).toEqual({
			messageId: 'a',
			approved,
			text,
			at: iso(2),
			from: { phone: '4915100' },
		});
	});

	it('the first answer decides: a later one, even quoting the question, answers nothing', () => {
		const chat = timeline([
			question,
			{ id: 'one', at: 1, text: '1' },
			{ id: 'two', at: 2, text: '2' },
			{ id: 'quoting', at: 3, text: '2', quotes: 'q' },
		]);
		expect(answerOf(chat, 'q', 'one', APPROVAL)?.approved).toBe(true);
		expect(answerOf(chat, 'q', 'two', APPROVAL)).toBeUndefined();
		expect(answerOf(chat, 'q', 'quoting', APPROVAL)).toBeUndefined();
	});

	it('an answer written after a newer question went to that one: a later reply may answer the older', () => {
		const chat = timeline([
			question,
			{ id: 'newer', at: 1, me: true, text: `Refund too? ${link('k2')}` },
			{ id: 'for-newer', at: 2, text: '1' },
			{ id: 'for-older', at: 3, text: '2' },
		]);
		expect(answerOf(chat, 'q', 'for-older', APPROVAL)?.approved).toBe(false);
		const quotedEarlier = timeline([
			question,
			{ id: 'newer', at: 1, me: true, text: `Refund too? ${link('k2')}` },
			{ id: 'quoting', at: 2, text: '1', quotes: 'q' },
			{ id: 'later', at: 3, text: '2' },
		]);
		expect(answerOf(quotedEarlier, 'q', 'later', APPROVAL)).toBeUndefined();
	});

	it('nothing without both messages in the saved timeline, or before the question', () => {
		const chat = timeline([{ id: 'before', at: -1, text: '1' }, question]);
		expect(answerOf(chat, 'q', 'forged', APPROVAL)).toBeUndefined();
		expect(answerOf(chat, 'missing', 'before', APPROVAL)).toBeUndefined();
		expect(answerOf(chat, 'q', 'before', APPROVAL)).toBeUndefined();
	});

	it('the account never answers, nor does a question that is not its own', () => {
		const chat = timeline([
			question,
			{ id: 'own', at: 1, me: true, text: '1' },
			{ id: 'theirs', at: 2, text: `Refund? ${link('k')}` },
			{ id: 'one', at: 3, text: '1' },
		]);
		expect(answerOf(chat, 'q', 'own', APPROVAL)).toBeUndefined();
		expect(answerOf(chat, 'theirs', 'one', APPROVAL)).toBeUndefined();
	});

	it('a reply quoting another message answers nothing; quoting the question does', () => {
		const chat = timeline([
			question,
			{ id: 'other', at: 1, text: 'hello' },
			{ id: 'quoting-other', at: 2, text: '1', quotes: 'other' },
			{ id: 'quoting-question', at: 3, text: '2', quotes: 'q' },
		]);
		expect(answerOf(chat, 'q', 'quoting-other', APPROVAL)).toBeUndefined();
		expect(answerOf(chat, 'q', 'quoting-question', APPROVAL)?.approved).toBe(false);
	});

	it('a message written after the wait limit answers nothing', () => {
		const chat = timeline([question, { id: 'late', at: 30, text: '1' }]);
		expect(answerOf(chat, 'q', 'late', { ...APPROVAL, until: T0 + 29 * 60_000 })).toBeUndefined();
		expect(answerOf(chat, 'q', 'late', { ...APPROVAL, until: T0 + 30 * 60_000 })?.approved).toBe(
			true,
		);
	});

	it('in a group any member answers, or only the numbers listed (compared by digits)', () => {
		const group = timeline([
			{ ...question, group: true },
			{ id: 'member', at: 1, text: '1', from: '4917000', group: true },
			{ id: 'manager', at: 2, text: '2', from: '4915100', group: true },
		]);
		expect(answerOf(group, 'q', 'member', APPROVAL)?.approved).toBe(true);
		const listed = { ...APPROVAL, groupNumbers: ['+49 151 00'] };
		expect(answerOf(group, 'q', 'member', listed)).toBeUndefined();
		expect(answerOf(group, 'q', 'manager', listed)?.approved).toBe(false);
	});

	it('free text: the next message after the question, or a later reply quoting it', () => {
		const chat = timeline([
			question,
			{ id: 'first', at: 1, text: 'Only half, please' },
			{ id: 'second', at: 2, text: 'and soon' },
			{ id: 'quoting', at: 3, text: 'Make it 20 €', quotes: 'q' },
		]);
		expect(answerOf(chat, 'q', 'first', FREE_TEXT)).toMatchObject({ text: 'Only half, please' });
		expect(answerOf(chat, 'q', 'second', FREE_TEXT)).toBeUndefined();
		expect(answerOf(chat, 'q', 'quoting', FREE_TEXT)?.text).toBe('Make it 20 €');
	});

	it('free text in a group with listed numbers: the first listed member writing is next', () => {
		const chat = timeline([
			{ ...question, group: true },
			{ id: 'chatter', at: 1, text: 'lunch?', from: '4917000', group: true },
			{ id: 'manager', at: 2, text: 'Half', from: '4915100', group: true },
		]);
		const listed = { ...FREE_TEXT, groupNumbers: ['4915100'] };
		expect(answerOf(chat, 'q', 'manager', listed)?.text).toBe('Half');
		expect(answerOf(chat, 'q', 'manager', FREE_TEXT)).toBeUndefined();
	});
});
