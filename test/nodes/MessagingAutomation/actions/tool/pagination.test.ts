import type { INodeParameters } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';

import { listOf, nextCursorOf } from '../../../../../nodes/MessagingAutomation/actions/tool/pagination';
import { useHarness } from '../../harness';

/* Return All / Limit for the list and search tools, following the cursor each answer returns. */

const h = useHarness({}, { resetEach: false });
beforeAll(async () => {
	for (let index = 0; index < 30; index++) {
		h.sandbox.inject.injectMessage({ from: { phone: `4916${String(index).padStart(8, '0')}`, name: `Fan ${index}` }, text: `Hello number ${index}` });
	}
});

const listJson = (input: object, rest: INodeParameters = {}): INodeParameters => ({
	resource: 'chat',
	operation: 'getAll',
	inputMode: 'json',
	jsonInput: JSON.stringify(input),
	...rest,
});

describe('Return All and Limit', () => {
	it('Return All follows next_cursor to the last page', async () => {
		const result = await h.run({ parameters: listJson({ channel: 'qr', limit: 5 }, { returnAll: true }) });
		expect(result.error).toBeUndefined();
		const total = h.sandbox.state.accounts.get('acc_demo')?.chats.size ?? 0;
		const qrChats = [...(h.sandbox.state.accounts.get('acc_demo')?.chats.values() ?? [])].filter((chat) => chat.channel === 'qr');
		expect(total).toBeGreaterThan(30);
		expect(result.json).toHaveLength(qrChats.length);
		expect(new Set(result.json.map((json) => json.conversation_id)).size).toBe(qrChats.length);
		expect(result.calls).toHaveLength(Math.ceil(qrChats.length / 5));
		const cursors = result.calls.map((call) => (call.input as { cursor?: string }).cursor);
		expect(cursors[0]).toBeUndefined();
		expect(cursors.slice(1).every((cursor) => typeof cursor === 'string')).toBe(true);
	});

	it('Limit stops at the limit and asks only for what it still needs', async () => {
		const result = await h.run({ parameters: listJson({ limit: 5 }, { returnAll: false, limit: 12 }) });
		expect(result.json).toHaveLength(12);
		expect(result.calls.map((call) => (call.input as { limit: number }).limit)).toEqual([5, 5, 2]);
		expect(result.output.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
	});

	it('Simplify keeps the fields of a message a workflow needs', async () => {
		const parameters: INodeParameters = {
			resource: 'message',
			operation: 'search',
			inputMode: 'json',
			jsonInput: '{"query":"Hello number"}',
			limit: 3,
		};
		const simple = await h.run({ parameters });
		const raw = await h.run({ parameters: { ...parameters, simplify: false } });
		expect(simple.json).toHaveLength(3);
		expect(Object.keys(simple.json[0]).sort()).toEqual(
			expect.arrayContaining(['conversation_id', 'from', 'id', 'text', 'timestamp']),
		);
		expect(Object.keys(raw.json[0]).length).toBeGreaterThan(Object.keys(simple.json[0]).length);
		expect(simple.json[0]).not.toHaveProperty('quoted_message_id');
	});
});

describe('finding lists and cursors in answers of unknown layout', () => {
	it('reads the usual names', () => {
		expect(listOf({ conversations: [1, 2], next_cursor: 'c' })).toEqual([1, 2]);
		expect(listOf({ total: 2, items: [3] })).toEqual([3]);
		expect(nextCursorOf({ next_cursor: 'abc' })).toBe('abc');
		expect(nextCursorOf({ pagination: { nextCursor: 'def' } })).toBe('def');
		expect(nextCursorOf({ next_cursor: 'x', has_more: false })).toBeUndefined();
		expect(nextCursorOf({ next_cursor: null })).toBeUndefined();
	});
});

describe('Message › Get Many as conversation history', () => {
	it('gives one item with who spoke, text and time, oldest first, in the shape the trigger gives', async () => {
		const conversationId = '4915112345678@s.whatsapp.net';
		const parameters = { resource: 'message', operation: 'getAll', conversationId, returnAll: true, output: 'history' };
		const result = await h.run({ parameters });
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(1);
		const { history, history_text: text } = result.json[0] as { history: Array<Record<string, unknown>>; history_text: string };
		const saved = h.sandbox.state.accounts.get('acc_demo')?.messages.filter((message) => message.conversationId === conversationId) ?? [];
		expect(history.map((entry) => entry.message_id)).toEqual([...saved].sort((a, b) => a.timestamp - b.timestamp).map((message) => message.id));
		expect(new Set(history.map((entry) => entry.role))).toEqual(new Set(['person', 'account']));
		expect(Object.keys(history[0]).sort()).toEqual(['message_id', 'name', 'role', 'text', 'time']);
		expect(text.split('\n')).toHaveLength(history.length);
		expect(result.json[0].conversation_id).toBe(conversationId);
	});
});
