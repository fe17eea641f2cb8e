import { describe, expect, it } from 'vitest';

import { answerBeforeTurn } from '../../../../nodes/MessagingAutomationTrigger/answers/earlierAnswer';
import { timelineOf } from '../../../../nodes/shared/conversation/timeline';

/*
 * The answer written before the turn that the turn's run offers again (answerRoute.ts), as its
 * offer carries it: the message itself, so that the run can run it as an ordinary message when its
 * question does not take it (answerPass.ts), with what its caught-up item says.
 */

const T0 = Date.UTC(2026, 10, 29, 10, 0, 0);

/** conv-1 as a read shows it: `[id, text, second, fromMe]`, oldest first (the service returns newest first). */
const chat = (entries: Array<[string, string, number, boolean?]>) =>
	timelineOf({
		messages: entries
			.map(([id, text, second, fromMe = false]) => ({
				id,
				conversation_id: 'conv-1',
				from: { phone: 'alice' },
				from_me: fromMe,
				text,
				timestamp: new Date(T0 + second * 1000).toISOString(),
			}))
			.reverse(),
	});

const answersOne = (id: string) => id === 'one';

describe('answerBeforeTurn', () => {
	const timeline = chat([
		['why', 'why?', 0],
		['question', 'Refund?', 10, true],
		['one', '1', 20],
		['hello', 'hello', 110],
		['again', 'are you there?', 112],
	]);

	it("carries the earlier answer: the message, when, how long before the turn's last message, and the person's message before it", () => {
		expect(answerBeforeTurn(timeline, new Set(['hello', 'again']), answersOne)).toEqual({
			message: expect.objectContaining({ id: 'one', text: '1' }),
			at: T0 + 20_000,
			age_seconds: 92,
			previous_message_id: 'why',
		});
	});

	it('none written a minute or more before the turn (its own run may still be claiming it): none', () => {
		expect(
			answerBeforeTurn(
				chat([
					['one', '1', 20],
					['hello', 'hello', 79],
				]),
				new Set(['hello']),
				answersOne,
			),
		).toBeUndefined();
	});

	it('no message before the turn answers the question: none', () => {
		expect(answerBeforeTurn(timeline, new Set(['hello']), () => false)).toBeUndefined();
	});
});
