import { describe, expect, it } from 'vitest';

import {
	answerOf,
	questionOf,
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
	{ approved: true, number: '1', words: ['Approve', 'yes', '👍'] },
	{ approved: false, number: '2', words: ['Decline', 'no', '👎'] },
];
const APPROVAL: AnswerCheck = { rules: { kind: 'approval', choices: CHOICES }, groupNumbers: [] };
const FREE_TEXT: AnswerCheck = { rules: { kind: 'freeText' }, groupNumbers: [] };

describe('questionOf: the one question a message is offered to', () => {
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
		questionOf(chat, chat.find((entry) => entry.id === id) as TimelineMessage)?.questionId;

	it('the newest question only, never an older one; a link without chat=1 is no question', () => {
		expect(offered('answer')).toBe('q-new');
	});

	it('a reply quoting a question goes to that question; quoting anything else, to none', () => {
		expect(offered('quoting-old')).toBe('q-old');
		expect(offered('quoting-other')).toBeUndefined();
	});

	it("the account's own messages and messages without text are offered nowhere", () => {
		expect(offered('mine')).toBeUndefined();
		expect(offered('photo')).toBeUndefined();
	});

	it('gives the link of the question to post to', () => {
		expect(questionOf(chat, chat[3])?.link).toBe(link('k2'));
	});

	it('offers only questions asked before the message', () => {
		const early = timeline([
			{ id: 'early', at: 0, text: '1' },
			{ id: 'q', at: 1, me: true, text: `Ok? ${link('k')}` },
		]);
		expect(questionOf(early, early[0])).toBeUndefined();
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

	it('without quoting, a reply answers only the newest question: never an older one, also when the newest no longer waits', () => {
		const chat = timeline([
			question,
			{ id: 'newer', at: 1, me: true, text: `Refund too? ${link('k2')}` },
			{ id: 'for-newer', at: 2, text: '1' },
			{ id: 'again', at: 3, text: '2' },
		]);
		expect(answerOf(chat, 'newer', 'for-newer', APPROVAL)?.approved).toBe(true);
		expect(answerOf(chat, 'q', 'for-newer', APPROVAL)).toBeUndefined();
		expect(answerOf(chat, 'q', 'again', APPROVAL)).toBeUndefined();
		expect(answerOf(chat, 'newer', 'again', APPROVAL)).toBeUndefined();
	});

	it('one reply resumes at most one of two waiting questions, whichever is asked', () => {
		const chat = timeline([
			{ id: 'a', at: 0, me: true, text: `Refund 25 EUR? ${link('ka')}` },
			{ id: 'b', at: 1, me: true, text: `Refund 500 EUR? ${link('kb')}` },
			...['1', ' YES! ', '👍', '2'].map((text, index) => ({
				id: `r${index}`,
				at: 2 + index,
				text,
			})),
			{ id: 'quoting-a', at: 9, text: '1', quotes: 'a' },
		]);
		for (const reply of ['r0', 'r1', 'r2', 'r3', 'quoting-a']) {
			const resumed = ['a', 'b'].filter((id) => answerOf(chat, id, reply, APPROVAL));
			expect(resumed.length, reply).toBeLessThanOrEqual(1);
		}
		expect(answerOf(chat, 'b', 'r0', APPROVAL)?.approved).toBe(true);
		expect(answerOf(chat, 'a', 'quoting-a', APPROVAL)?.approved).toBe(true);
	});

	it('a quoted reply answers its question however many questions came after it', () => {
		const chat = timeline([
			question,
			{ id: 'newer', at: 1, me: true, text: `Refund too? ${link('k2')}` },
			{ id: 'bot', at: 2, me: true, text: 'Anything else?' },
			{ id: 'quoting', at: 3, text: 'yes', quotes: 'q' },
		]);
		expect(answerOf(chat, 'q', 'quoting', APPROVAL)?.approved).toBe(true);
		expect(answerOf(chat, 'newer', 'quoting', APPROVAL)).toBeUndefined();
	});

	it('once your account writes again, only a reply quoting the question answers it, numbers and words alike', () => {
		const chat = timeline([
			question,
			{ id: 'why', at: 1, text: 'why?' },
			{ id: 'bot', at: 2, me: true, text: 'Reply 1 for opening hours, 2 to talk to a person' },
			{ id: 'ok', at: 3, text: 'yes' },
			{ id: 'two', at: 4, text: '2' },
			{ id: 'one', at: 5, text: '1' },
			{ id: 'quoting', at: 6, text: '1', quotes: 'q' },
		]);
		for (const id of ['ok', 'two', 'one'])
			expect(answerOf(chat, 'q', id, APPROVAL), id).toBeUndefined();
		expect(answerOf(chat, 'q', 'quoting', APPROVAL)?.approved).toBe(true);
		const direct = timeline([
			question,
			{ id: 'why', at: 1, text: 'why?' },
			{ id: 'y', at: 2, text: 'Yes' },
		]);
		expect(answerOf(direct, 'q', 'y', APPROVAL)?.approved).toBe(true);
	});

	it('every question counts, whatever its response type: a newer one without Answer in Chat leaves an unquoted reply answering nothing', () => {
		const chat = timeline([
			question,
			{ id: 'links-only', at: 1, me: true, text: `Refund 500? ${link('k2', false)}` },
			{ id: 'one', at: 2, text: '1' },
			{ id: 'quoting', at: 3, text: '1', quotes: 'q' },
		]);
		expect(questionOf(chat, chat[2])).toBeUndefined();
		expect(answerOf(chat, 'q', 'one', APPROVAL)).toBeUndefined();
		expect(answerOf(chat, 'q', 'quoting', APPROVAL)?.approved).toBe(true);
	});

	it.each(['1?', 'yes?', 'no?', '2?!'])(
		'a question mark makes %j no answer, free text too',
		(text) => {
			const chat = timeline([question, { id: 'asks', at: 1, text }]);
			expect(questionOf(chat, chat[1])).toBeUndefined();
			expect(answerOf(chat, 'q', 'asks', APPROVAL)).toBeUndefined();
			expect(answerOf(chat, 'q', 'asks', FREE_TEXT)).toBeUndefined();
		},
	);

	it('free text: not a reply to whatever the account wrote after the question, unless it quotes the question', () => {
		const chat = timeline([
			question,
			{ id: 'bot', at: 1, me: true, text: 'Anything else?' },
			{ id: 'no', at: 2, text: 'no' },
			{ id: 'quoting', at: 3, text: 'Half of it', quotes: 'q' },
		]);
		expect(answerOf(chat, 'q', 'no', FREE_TEXT)).toBeUndefined();
		expect(answerOf(chat, 'q', 'quoting', FREE_TEXT)?.text).toBe('Half of it');
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
			{ id: 'chatter', at: 1, text: 'lunch at one', from: '4917000', group: true },
			{ id: 'manager', at: 2, text: 'Half', from: '4915100', group: true },
		]);
		const listed = { ...FREE_TEXT, groupNumbers: ['4915100'] };
		expect(answerOf(chat, 'q', 'manager', listed)?.text).toBe('Half');
		expect(answerOf(chat, 'q', 'manager', FREE_TEXT)).toBeUndefined();
	});
});
