import { describe, expect, it } from 'vitest';

import { turnEnd } from '../../../../nodes/shared/conversation/history';
import { memoryMessages, needsOlderPage } from '../../../../nodes/shared/conversation/memory';
import { timelineOf } from '../../../../nodes/shared/conversation/timeline';
import { DANAS_BURST, groupBurstTimeline } from './groupBurst';

const at = (minute: number) => `2026-11-25T12:${String(minute).padStart(2, '0')}:00.000Z`;
const text = (message: { content: Array<{ type: string; text?: string }> }) =>
	message.content.map((part) => part.text).join('');

describe('chat memory from the conversation', () => {
	// As get_messages answers: newest first.
	const timeline = timelineOf({
		messages: [
			{ id: 'b2', from: { phone: '49151', name: 'Dana' }, text: 'where is it?', timestamp: at(6) },
			{ id: 'b1', from: { phone: '49151', name: 'Dana' }, text: 'order 4411', timestamp: at(5) },
			{ id: 'staff', from_me: true, text: 'A colleague will check.', timestamp: at(4) },
			{ id: 'bot', from_me: true, text: 'Yes, we ship to Spain.', timestamp: at(3) },
			{
				id: 'photo',
				from: { phone: '49151', name: 'Dana' },
				type: 'image',
				attachment: { file_name: 'label.png' },
				timestamp: at(2),
			},
			{ id: 'm1', from: { phone: '49151', name: 'Dana' }, text: 'Spain?', timestamp: at(1) },
		],
	});

	it('ends before the run’s own burst: the person as user, the account as assistant, oldest first', () => {
		const messages = memoryMessages(timeline, ['b2', 'b1'], 10);
		expect(messages.map((message) => [message.role, text(message)])).toEqual([
			['user', 'Spain?'],
			['user', '[image label.png]'],
			['assistant', 'Yes, we ship to Spain.'],
			['assistant', 'A colleague will check.'],
		]);
	});

	it('keeps the last `count` messages before the run’s own', () => {
		expect(memoryMessages(timeline, ['b1'], 2).map(text)).toEqual([
			'Yes, we ship to Spain.',
			'A colleague will check.',
		]);
	});

	it('ends with the newest message when the run names none of its own', () => {
		expect(turnEnd(timeline, [])).toBe(timeline.length);
		expect(memoryMessages(timeline, [], 1).map(text)).toEqual(['where is it?']);
	});

	it('asks for an older page while the run’s message is unread or the window reaches past the read', () => {
		expect(turnEnd(timeline, ['older'])).toBe(-1);
		expect(needsOlderPage(timeline, ['older'], 2)).toBe(true);
		expect(needsOlderPage(timeline, ['b1'], 5)).toBe(true);
		expect(needsOlderPage(timeline, ['b1'], 4)).toBe(false);
		expect(memoryMessages(timeline, ['older'], 4)).toEqual([]);
	});

	it('names the person in a group, never the account', () => {
		const group = timelineOf({
			messages: [
				{ id: 'g3', chat_type: 'group', from_me: true, text: 'Noted.', timestamp: at(3) },
				{
					id: 'g2',
					chat_type: 'group',
					from: { phone: '49152', name: 'Bob' },
					text: 'me too',
					timestamp: at(2),
				},
				{
					id: 'g1',
					chat_type: 'group',
					from: { phone: '49151', name: '' },
					text: 'lunch?',
					timestamp: at(1),
				},
			],
		});
		expect(memoryMessages(group, [], 10).map(text)).toEqual([
			'49151: lunch?',
			'Bob: me too',
			'Noted.',
		]);
	});
});

describe('chat memory of a group burst', () => {
	it("holds another member's message written inside the person's burst, once, and not the burst's own", () => {
		const timeline = groupBurstTimeline();
		expect(memoryMessages(timeline, DANAS_BURST, 10).map(text)).toEqual([
			'Bob: hi all',
			'Bob: I need one too',
		]);
		expect(needsOlderPage(timeline, DANAS_BURST, 2)).toBe(false);
		expect(needsOlderPage(timeline, DANAS_BURST, 3)).toBe(true);
	});
});
