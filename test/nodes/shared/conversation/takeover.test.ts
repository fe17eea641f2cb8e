import { describe, expect, it } from 'vitest';

import { pauseAt, type TakeoverRules } from '../../../../nodes/shared/conversation/takeover';
import { timelineOf, type TimelineMessage } from '../../../../nodes/shared/conversation/timeline';

const HOUR = 3_600_000;
const RULES: TakeoverRules = {
	pauseCommand: '/bot off',
	resumeCommand: '/bot on',
	handoverWords: ['human', 'agent', 'talk to a person'],
	resumeAfterMs: 12 * HOUR,
};
const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const iso = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

interface Entry {
	id: string;
	/** Minutes after T0. */
	at: number;
	text?: string;
	me?: boolean;
	from?: string;
}

/** Messages as get_messages answers them (newest first). */
function timeline(entries: Entry[]): TimelineMessage[] {
	const messages = entries.map(({ id, at, text = id, me = false, from = 'alice' }) => ({
		id,
		conversation_id: 'chat',
		from: { phone: from },
		from_me: me,
		text,
		timestamp: iso(at),
	}));
	return timelineOf({ messages: messages.reverse() });
}

describe('pauseAt: commands', () => {
	const chat = timeline([
		{ id: 'hello', at: 0 },
		{ id: 'off', at: 1, text: '  /BOT Off ', me: true },
		{ id: 'paused1', at: 2 },
		{ id: 'paused2', at: 3 },
		{ id: 'on', at: 4, text: '/bot on', me: true },
		{ id: 'after', at: 5 },
	]);

	it('pauses from the pause command on, case and surrounding spaces ignored', () => {
		expect(pauseAt(chat, 'hello', RULES)).toEqual({ paused: false });
		expect(pauseAt(chat, 'paused2', RULES)).toEqual({
			paused: true,
			by: 'command',
			since: iso(1),
			until: new Date(T0 + 60_000 + 12 * HOUR).toISOString(),
			message_id: 'off',
			text: '  /BOT Off ',
		});
	});

	it('ends the pause at the resume command', () => {
		expect(pauseAt(chat, 'after', RULES)).toEqual({ paused: false });
	});

	it('counts only a whole text that is the command', () => {
		const chat = timeline([
			{ id: 'off', at: 1, text: 'please /bot off now', me: true },
			{ id: 'later', at: 2 },
		]);
		expect(pauseAt(chat, 'later', RULES)).toEqual({ paused: false });
	});

	it("ignores a person's command: only the account can pause", () => {
		const chat = timeline([
			{ id: 'off', at: 1, text: '/bot off' },
			{ id: 'later', at: 2 },
		]);
		expect(pauseAt(chat, 'later', RULES)).toEqual({ paused: false });
		expect(pauseAt(chat, 'off', RULES)).toEqual({ paused: false });
	});

	it('keeps the pause however many messages came since', () => {
		const entries: Entry[] = [{ id: 'off', at: 0, text: '/bot off', me: true }];
		for (let index = 1; index <= 60; index++)
			entries.push({ id: `m${index}`, at: index, me: index % 2 === 0 });
		const state = pauseAt(timeline(entries), 'm59', RULES);
		expect(state).toMatchObject({ paused: true, by: 'command', message_id: 'off' });
	});

	it('lets the latest of several commands decide', () => {
		const chat = timeline([
			{ id: 'off1', at: 0, text: '/bot off', me: true },
			{ id: 'on', at: 1, text: '/bot on', me: true },
			{ id: 'off2', at: 2, text: '/bot off', me: true },
			{ id: 'later', at: 3 },
		]);
		expect(pauseAt(chat, 'later', RULES)).toMatchObject({ paused: true, message_id: 'off2' });
	});

	it('follows commands the user renamed', () => {
		const rules = { ...RULES, pauseCommand: 'Pause Bot', resumeCommand: 'resume bot' };
		const chat = timeline([
			{ id: 'off', at: 0, text: 'pause bot', me: true },
			{ id: 'p', at: 1 },
			{ id: 'on', at: 2, text: 'RESUME BOT', me: true },
			{ id: 'q', at: 3 },
		]);
		expect(pauseAt(chat, 'p', rules)).toMatchObject({ paused: true, by: 'command' });
		expect(pauseAt(chat, 'q', rules)).toEqual({ paused: false });
		expect(pauseAt(chat, 'p', RULES)).toEqual({ paused: false });
	});
});

describe('pauseAt: Resume After', () => {
	const chat = timeline([
		{ id: 'off', at: 0, text: '/bot off', me: true },
		{ id: 'within', at: 12 * 60 - 1 },
		{ id: 'at', at: 12 * 60 },
		{ id: 'much later', at: 48 * 60 },
	]);

	it('ends a pause Resume After after it was set, measured by the messages own times', () => {
		expect(pauseAt(chat, 'within', RULES)).toMatchObject({ paused: true });
		expect(pauseAt(chat, 'at', RULES)).toEqual({ paused: false });
	});

	it('with 0, only the resume command ends a pause, and nothing says until when', () => {
		const rules = { ...RULES, resumeAfterMs: 0 };
		expect(pauseAt(chat, 'much later', rules)).toMatchObject({ paused: true, until: null });
	});

	it('treats a pause and a resume older than Resume After as over', () => {
		const chat = timeline([
			{ id: 'off', at: 0, text: '/bot off', me: true },
			{ id: 'on', at: 1, text: '/bot on', me: true },
			{ id: 'late', at: 13 * 60 },
		]);
		expect(pauseAt(chat, 'late', RULES)).toEqual({ paused: false });
	});
});

describe('pauseAt: hand-over words', () => {
	it('pauses from the hand-over message on, that message included', () => {
		const chat = timeline([
			{ id: 'hi', at: 0 },
			{ id: 'ask', at: 1, text: 'Can I talk to a HUMAN, please?' },
			{ id: 'next', at: 2 },
		]);
		expect(pauseAt(chat, 'hi', RULES)).toEqual({ paused: false });
		for (const id of ['ask', 'next'])
			expect(pauseAt(chat, id, RULES)).toMatchObject({
				paused: true,
				by: 'handover',
				since: iso(1),
				message_id: 'ask',
				text: 'Can I talk to a HUMAN, please?',
			});
	});

	it('matches whole words and phrases only, across line breaks and double spaces', () => {
		const at = (text: string) => pauseAt(timeline([{ id: 'm', at: 0, text }]), 'm', RULES).paused;
		expect(at('humane treatment')).toBe(false);
		expect(at('an agenda')).toBe(false);
		expect(at('reagent')).toBe(false);
		expect(at('agent!')).toBe(true);
		expect(at('(human)')).toBe(true);
		expect(at('I want to talk\nto  a person')).toBe(true);
		expect(at('talk to a personal trainer')).toBe(false);
	});

	it('finds a word in a sentence of a script written without spaces, not the start of a longer word', () => {
		const rules = { ...RULES, handoverWords: ['人工，人工客服', 'เจ้าหน้าที่'] };
		const at = (text: string) => pauseAt(timeline([{ id: 'm', at: 0, text }]), 'm', rules).paused;
		expect(at('我要人工客服')).toBe(true);
		expect(at('转人工')).toBe(true);
		expect(at('ขอคุยกับเจ้าหน้าที่ครับ')).toBe(true);
		expect(at('我要客服')).toBe(false);
		expect(at('人工智能怎么用')).toBe(false);
	});

	it('pauses nothing with no words set, and ignores words in own messages', () => {
		const chat = timeline([
			{ id: 'ask', at: 0, text: 'human please' },
			{ id: 'own', at: 1, text: 'a human will answer', me: true },
		]);
		expect(pauseAt(chat, 'ask', { ...RULES, handoverWords: [] })).toEqual({ paused: false });
		expect(pauseAt(chat, 'ask', { ...RULES, handoverWords: ['', '  '] })).toEqual({
			paused: false,
		});
		expect(
			pauseAt(timeline([{ id: 'own', at: 0, text: 'human', me: true }]), 'own', RULES),
		).toEqual({ paused: false });
	});

	it('is ended by the resume command, and expires like a command', () => {
		const chat = timeline([
			{ id: 'ask', at: 0, text: 'agent' },
			{ id: 'on', at: 1, text: '/bot on', me: true },
			{ id: 'after', at: 2 },
			{ id: 'ask again', at: 3, text: 'AGENT' },
			{ id: 'next day', at: 3 + 12 * 60 },
		]);
		expect(pauseAt(chat, 'after', RULES)).toEqual({ paused: false });
		expect(pauseAt(chat, 'ask again', RULES)).toMatchObject({ paused: true });
		expect(pauseAt(chat, 'next day', RULES)).toEqual({ paused: false });
	});

	it('pauses a whole group conversation when one member asks', () => {
		const chat = timeline([
			{ id: 'bob asks', at: 0, text: 'human', from: 'bob' },
			{ id: 'alice writes', at: 1, from: 'alice' },
		]);
		expect(pauseAt(chat, 'alice writes', RULES)).toMatchObject({
			paused: true,
			message_id: 'bob asks',
		});
	});
});

describe('pauseAt: the message asked about', () => {
	it('ignores what came after it', () => {
		const chat = timeline([
			{ id: 'first', at: 0 },
			{ id: 'off', at: 1, text: '/bot off', me: true },
		]);
		expect(pauseAt(chat, 'first', RULES)).toEqual({ paused: false });
	});

	it('judges a message not in the timeline as of the newest message read', () => {
		const chat = timeline([{ id: 'off', at: 0, text: '/bot off', me: true }]);
		expect(pauseAt(chat, 'unknown', RULES)).toMatchObject({ paused: true });
		expect(pauseAt([], 'unknown', RULES)).toEqual({ paused: false });
	});

	it('skips messages without text (a photo)', () => {
		const messages = [
			{ id: 'photo', conversation_id: 'chat', from_me: false, type: 'image', timestamp: iso(1) },
			{ id: 'off', conversation_id: 'chat', from_me: true, text: '/bot off', timestamp: iso(0) },
		];
		expect(pauseAt(timelineOf({ messages }), 'photo', RULES)).toMatchObject({ paused: true });
	});
});
