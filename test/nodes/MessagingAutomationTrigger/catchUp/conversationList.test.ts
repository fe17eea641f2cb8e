import { describe, expect, it } from 'vitest';

import { listedPage } from '../../../../nodes/MessagingAutomationTrigger/catchUp/conversationList';

/* list_conversations' answer is "not shown" in the spec: the sandbox's shape and the obvious others. */
describe('a page of list_conversations', () => {
	const at = '2026-11-28T10:00:00.000Z';

	it("reads the sandbox's shape: conversations, conversation_id, last_message_at, next_cursor", () => {
		expect(
			listedPage({
				conversations: [{ conversation_id: '491@s.whatsapp.net', last_message_at: at }],
				next_cursor: 'b2',
			}),
		).toEqual({
			chats: [{ conversationId: '491@s.whatsapp.net', lastAt: Date.parse(at) }],
			cursor: 'b2',
		});
	});

	it('takes items, data or a bare list, the id and the time under their other names; who wrote last is not asked (R5-4)', () => {
		expect(
			listedPage({ items: [{ id: 'a', last_message: { timestamp: at, from_me: true } }] }),
		).toEqual({
			chats: [{ conversationId: 'a', lastAt: Date.parse(at) }],
		});
		expect(
			listedPage({ data: [{ conversationId: 'b', updated_at: at, last_message_from_me: false }] }),
		).toEqual({
			chats: [{ conversationId: 'b', lastAt: Date.parse(at) }],
		});
		expect(listedPage([{ conversation_id: 'c', last_activity_at: at }]).chats).toHaveLength(1);
	});

	it('leaves out a chat without an id or a readable time, and an empty chat', () => {
		expect(
			listedPage({
				conversations: [
					{ conversation_id: 'x', last_message_at: null },
					{ last_message_at: at },
					{ conversation_id: 'y', last_message_at: 'yesterday' },
				],
				next_cursor: null,
			}),
		).toEqual({ chats: [] });
	});
});
