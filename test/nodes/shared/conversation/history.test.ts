import { describe, expect, it } from 'vitest';

import { historyBefore, historyText } from '../../../../nodes/shared/conversation/history';
import { timelineOf } from '../../../../nodes/shared/conversation/timeline';
import { DANAS_BURST, groupBurstTimeline } from './groupBurst';

const at = (minute: number) => `2026-11-25T12:${String(minute).padStart(2, '0')}:00.000Z`;

describe('conversation history', () => {
	const timeline = timelineOf({
		// As get_messages answers: newest first, in the Message shape of the spec.
		messages: [
			{
				id: 'now',
				from: { phone: '49151', name: 'Alice' },
				from_me: false,
				text: 'where is it?',
				timestamp: at(5),
			},
			{
				id: 'm3',
				from: { phone: '4915550100001', name: '' },
				from_me: true,
				text: 'On its way.',
				timestamp: at(3),
			},
			{
				id: 'm2',
				from: { phone: '49151', name: '' },
				from_me: false,
				type: 'image',
				attachment: { file_name: 'label.png' },
				timestamp: at(2),
			},
			{
				id: 'm1',
				from: { phone: '49151', name: 'Alice' },
				from_me: false,
				text: 'hi',
				timestamp: at(1),
			},
			{ id: 'broken', text: 'no timestamp' },
		],
	});

	it('lists who spoke, what and when, oldest first, up to the count, before the turn', () => {
		expect(historyBefore(timeline, ['now'], 2)).toEqual([
			{ role: 'person', name: '49151', text: '[image label.png]', time: at(2), message_id: 'm2' },
			{ role: 'account', name: 'You', text: 'On its way.', time: at(3), message_id: 'm3' },
		]);
		expect(historyBefore(timeline, ['m1'], 5)).toEqual([]);
		expect(historyBefore(timeline, ['now'], 0)).toEqual([]);
	});

	it('reads as lines a prompt can take as they are', () => {
		expect(historyText(historyBefore(timeline, ['now'], 3))).toBe(
			'[2026-11-25 12:01] Alice: hi\n[2026-11-25 12:02] 49151: [image label.png]\n[2026-11-25 12:03] You: On its way.',
		);
	});

	it('also reads a list under items', () => {
		expect(timelineOf({ items: [{ id: 'a', timestamp: at(1) }] }).map((entry) => entry.id)).toEqual(
			['a'],
		);
		expect(timelineOf(null)).toEqual([]);
	});
});

describe('history of a Send and Wait question', () => {
	it('keeps its words and replaces its signed links with a mark, so no model or log holds a live approval', () => {
		const link = (approved: boolean) =>
			`https://n8n.example/webhook-waiting/41/node-1?q=k&chat=1&approved=${approved}&signature=${'a'.repeat(64)}`;
		const timeline = timelineOf({
			messages: [
				{ id: 'now', from_me: false, text: 'why?', timestamp: at(2) },
				{
					id: 'q',
					from_me: true,
					text: `Refund 25 EUR?\n\nReply 1 to Approve or 2 to Decline\n\nApprove: ${link(true)}\nDecline: ${link(false)}`,
					timestamp: at(1),
				},
			],
		});
		const [question] = historyBefore(timeline, ['now'], 5);
		expect(question.text).toBe(
			'Refund 25 EUR?\n\nReply 1 to Approve or 2 to Decline\n\nApprove: [answer link]\nDecline: [answer link]',
		);
		expect(historyText([question])).not.toContain('signature');
	});
});

describe('history of a group burst', () => {
	it("holds another member's message written inside the burst, and not the burst's own", () => {
		const history = historyBefore(groupBurstTimeline(), DANAS_BURST, 5);
		expect(history.map((entry) => entry.text)).toEqual(['hi all', 'I need one too']);
	});
});
