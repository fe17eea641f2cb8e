import { timelineOf, type TimelineMessage } from '../../../../nodes/shared/conversation/timeline';

/*
 * A group chat where Dana's burst of two messages ("d1", "d2") has Bob's message ("x") written
 * between them, after Bob's earlier "old": what history and memory make of a burst in a group.
 */
const at = (minute: number) => `2026-11-25T12:${String(minute).padStart(2, '0')}:00.000Z`;

const group = (id: string, minute: number, phone: string, text: string) => ({
	id,
	chat_type: 'group',
	from: { phone, name: phone === '49151' ? 'Dana' : 'Bob' },
	text,
	timestamp: at(minute),
});

export const DANAS_BURST = ['d1', 'd2'];

export const groupBurstTimeline = (): TimelineMessage[] =>
	timelineOf({
		messages: [
			group('d2', 4, '49151', 'before noon?'),
			group('x', 3, '49152', 'I need one too'),
			group('d1', 2, '49151', 'can you deliver'),
			group('old', 1, '49152', 'hi all'),
		],
	});
