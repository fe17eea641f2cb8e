import { describe, expect, it, vi } from 'vitest';
import { DEMO } from '../index';
import { raw, useSandbox, write } from './harness';

const ALICE_CHAT = `${DEMO.alice.phone}@s.whatsapp.net`;

describe('sandbox inbox: saved chats, reads, attachments', () => {
	const api = useSandbox();

	it("saves the account's message typed on the phone as its own, counted by no send limit", async () => {
		const injected = api.sandbox.inject.injectMessage({
			from: { phone: DEMO.alice.phone },
			fromMe: true,
			text: '/bot off',
		});
		expect(injected).toMatchObject({
			saved: true,
			message: { conversation_id: ALICE_CHAT, from_me: true, text: '/bot off' },
		});
		const newest = await api.call('get_messages', { conversationId: ALICE_CHAT, limit: 1 });
		expect(newest.body.messages[0]).toMatchObject({ from_me: true, text: '/bot off' });
		expect(api.sandbox.inject.sends()).toHaveLength(0);
	});

	it('lists two messages with the same timestamp newest first: the one saved later first', async () => {
		for (const text of ['first of two', 'second of two'])
			api.sandbox.inject.injectMessage({ from: { phone: DEMO.alice.phone }, text });
		const newest = await api.call('get_messages', { conversationId: ALICE_CHAT, limit: 2 });
		const [later, earlier] = newest.body.messages as { text: string; timestamp: string }[];
		expect(later.timestamp).toBe(earlier.timestamp);
		expect([later.text, earlier.text]).toEqual(['second of two', 'first of two']);
	});

	it('pages conversations and messages with cursor / next_cursor', async () => {
		const first = await api.call('list_conversations', { limit: 4 });
		expect(first.body.conversations).toHaveLength(4);
		expect(first.body.next_cursor).toEqual(expect.any(String));
		const second = await api.call('list_conversations', {
			limit: 4,
			cursor: first.body.next_cursor,
		});
		expect(second.body.next_cursor).toBeNull();
		const all = [...first.body.conversations, ...second.body.conversations].map(
			(c: { conversation_id: string }) => c.conversation_id,
		);
		expect(all.sort()).toEqual(
			[
				DEMO.carol.phone,
				DEMO.dave.phone,
				DEMO.adminGroup.jid,
				DEMO.memberGroup.jid,
				`${DEMO.bob.phone}@s.whatsapp.net`,
				ALICE_CHAT,
			].sort(),
		);
		const messages = await api.call('get_messages', { conversationId: ALICE_CHAT, limit: 2 });
		expect(messages.body.messages.map((m: { text: string }) => m.text)).toEqual([
			'Thanks Alice, it left the warehouse this morning.',
			'Here is the receipt',
		]);
		const rest = await api.call('get_messages', {
			conversationId: ALICE_CHAT,
			limit: 2,
			cursor: messages.body.next_cursor,
		});
		expect(rest.body).toMatchObject({
			messages: [{ text: 'Hi! Has my order 1042 shipped yet?' }],
			next_cursor: null,
		});
		expect(
			(await api.call('get_messages', { conversationId: ALICE_CHAT, cursor: 'bogus' })).body.error
				.field,
		).toBe('cursor');
	});

	it('searches message text and attachments', async () => {
		const hits = await api.call('search_messages', { query: 'ORDER' });
		expect(hits.body.messages.map((m: { text: string }) => m.text)).toEqual([
			'Hi! Has my order 1042 shipped yet?',
		]);
		const files = await api.call('search_attachments', { mimeType: 'application/pdf' });
		expect(
			files.body.items.map((f: { file_name: string; download_available: boolean }) => [
				f.file_name,
				f.download_available,
			]),
		).toEqual([
			['address.pdf', false],
			['invoice-77.pdf', true],
		]);
	});

	it('saves incoming messages only from chats the filters and group selection allow, and emits for those', async () => {
		const emit = vi.spyOn(api.sandbox.webhooks, 'emit');
		const kept = api.sandbox.inject.injectMessage({
			from: { phone: DEMO.alice.phone, name: 'Alice' },
			text: 'Still there?',
		});
		expect(kept.saved).toBe(true);
		const blocked = api.sandbox.inject.injectMessage({
			from: { phone: DEMO.excludedPhone },
			text: 'spam',
		});
		expect(blocked.saved).toBe(false);
		expect(emit.mock.calls.map((c) => c[1])).toEqual(['message.received']);
		expect(emit.mock.calls[0][2]).toEqual({ message: kept.message });
		expect(kept.message).toMatchObject({
			from_me: false,
			chat_type: 'individual',
			conversation_id: ALICE_CHAT,
			quoted_message_id: null,
		});
		const list = await api.call('list_conversations', { channel: 'qr', chat_type: 'individual' });
		expect(
			list.body.conversations.map((c: { conversation_id: string }) => c.conversation_id),
		).not.toContain(`${DEMO.excludedPhone}@s.whatsapp.net`);
	});

	it('cuts oversized text in events to fit 256 KB and flags text_truncated', async () => {
		const emit = vi.spyOn(api.sandbox.webhooks, 'emit');
		api.sandbox.inject.injectMessage({
			from: { phone: DEMO.alice.phone },
			text: 'é"'.repeat(200_000),
		});
		const data = emit.mock.calls[0][2] as { message: { text: string; text_truncated?: boolean } };
		expect(data.message.text_truncated).toBe(true);
		expect(Buffer.byteLength(JSON.stringify(data))).toBeLessThanOrEqual(256 * 1024 - 1024);
		expect(data.message.text.length).toBeGreaterThan(50_000);
	});

	it('hands out a download link valid for 15 minutes on the sandbox clock', async () => {
		const receipt = api.sandbox.state
			.account('acc_demo')
			.messages.find((m) => m.attachment?.fileName === 'receipt-1042.png')!;
		const link = await api.call(
			'get_attachment_link',
			{ message_id: receipt.storedId },
			{ as: 'readOnly' },
		);
		expect(link.body).toMatchObject({
			file_name: 'receipt-1042.png',
			mime_type: 'image/png',
			expires_at: '2026-11-20T10:15:00.000Z',
		});
		const path = new URL(link.body.url).pathname;
		const file = await raw(api.sandbox.url, 'GET', path);
		expect(file.status).toBe(200);
		expect(file.headers['content-type']).toBe('image/png');
		expect(file.body).toBe('PNG receipt 1042');
		api.sandbox.clock.advance(15 * 60_000);
		const expired = await raw(api.sandbox.url, 'GET', path);
		expect(expired.status).toBe(410);
		expect(expired.body.error.code).toBe('link_expired');
	});

	it('refuses Business downloads and files not saved yet', async () => {
		const business = api.sandbox.state
			.account('acc_demo')
			.messages.find((m) => m.attachment?.fileName === 'address.pdf')!;
		const reply = await api.call('get_attachment_link', { message_id: business.storedId });
		expect(reply.status).toBe(422);
		expect(reply.body.error.message).toMatch(/Business file downloads are not available/);
		const pending = api.sandbox.inject.injectMessage({
			from: { phone: DEMO.bob.phone },
			text: 'photo',
			attachment: {
				fileName: 'a.jpg',
				mimeType: 'image/jpeg',
				content: 'x',
				downloadAvailable: false,
			},
		});
		const notYet = await api.call('get_attachment_link', {
			message_id: pending.message.stored_message_id,
		});
		expect(notYet.body.error.message).toMatch(/download_available is false/);
	});

	it('delete_chat removes saved messages and files; stopSaving skips the person afterwards', async () => {
		const reply = await write(api, 'delete_chat', { conversationId: ALICE_CHAT, stopSaving: true });
		expect(reply.body).toMatchObject({
			deleted: true,
			messages_deleted: 3,
			files_deleted: 1,
			stopped_saving: true,
		});
		expect((await api.call('get_messages', { conversationId: ALICE_CHAT })).status).toBe(422);
		expect(
			api.sandbox.inject.injectMessage({ from: { phone: DEMO.alice.phone }, text: 'hello?' }).saved,
		).toBe(false);
		await write(api, 'delete_chat', { conversationId: DEMO.adminGroup.jid, stopSaving: true });
		const group = api.sandbox.inject.injectMessage({
			from: { phone: DEMO.bob.phone },
			group: DEMO.adminGroup.jid,
			text: 'hi all',
		});
		expect(group.saved).toBe(false);
		expect((await write(api, 'delete_chat', { conversationId: DEMO.carol.phone })).status).toBe(
			422,
		);
	});

	it('emits connection events only for states needing a human', async () => {
		const emit = vi.spyOn(api.sandbox.webhooks, 'emit');
		await api.control('POST', '/channels/qr/disconnect', { needsHuman: false });
		await api.control('POST', '/channels/qr/connect', {});
		expect(emit).not.toHaveBeenCalled();
		await api.control('POST', '/channels/qr/disconnect', {});
		await api.control('POST', '/channels/qr/connect', {});
		expect(emit.mock.calls).toEqual([
			[
				'acc_demo',
				'connection.disconnected',
				{
					channel: 'qr',
					phone: DEMO.qrPhone,
					reason: 'logged_out',
					action_needed: 'scan_qr',
					dashboard_url: expect.stringMatching(/^https:/),
				},
			],
			['acc_demo', 'connection.connected', { channel: 'qr', phone: DEMO.qrPhone }],
		]);
		expect((await api.get('/api/v1/me')).body.numbers[0].connected).toBe(true);
	});
});
