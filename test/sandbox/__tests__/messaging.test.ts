import { describe, expect, it, vi } from 'vitest';
import { DEMO } from '../index';
import { useSandbox, write } from './harness';

const HOUR = 3_600_000;
const TEMPLATE = {
	channel: 'business',
	phoneNumber: DEMO.dave.phone,
	templateName: 'order_update',
	templateLanguage: 'en',
	templateParameters: ['Dave', '1043', 'packed'],
	recipientOptInConfirmed: true,
};

describe('sandbox sending rules', () => {
	const api = useSandbox();

	it('sends a free-form Business reply inside the 24-hour window and refuses it outside', async () => {
		const inside = await write(api, 'send_message', {
			channel: 'business',
			phoneNumber: DEMO.carol.phone,
			text: 'Yes, we do.',
		});
		expect(inside.status).toBe(200);
		expect(inside.body).toMatchObject({
			status: 'accepted',
			channel: 'business',
			conversation_id: DEMO.carol.phone,
		});
		const outside = await write(api, 'send_message', {
			channel: 'business',
			phoneNumber: DEMO.dave.phone,
			text: 'Calling you now',
		});
		expect(outside.status).toBe(422);
		expect(outside.body.error.message).toMatch(/24 hours.*template/);
		// Carol last wrote 110 min before the start, so her window closes 22 h 10 min after it.
		api.sandbox.clock.advance(22 * HOUR + 9 * 60_000);
		expect(
			(
				await write(api, 'send_message', {
					channel: 'business',
					phoneNumber: DEMO.carol.phone,
					text: 'just in time',
				})
			).status,
		).toBe(200);
		api.sandbox.clock.advance(60_000);
		expect(
			(
				await write(api, 'send_message', {
					channel: 'business',
					phoneNumber: DEMO.carol.phone,
					text: 'late',
				})
			).status,
		).toBe(422);
	});

	it('sends an approved template outside the window with opt-in confirmed and the right parameters', async () => {
		const sent = await write(api, 'send_message', TEMPLATE);
		expect(sent.status).toBe(200);
		expect(api.sandbox.inject.sends()[0]).toMatchObject({
			type: 'template',
			text: 'Hi Dave, your order 1043 is now packed.',
		});
		const wrongCount = await write(api, 'send_message', {
			...TEMPLATE,
			templateParameters: ['Dave'],
		});
		expect(wrongCount.body.error).toMatchObject({
			code: 'invalid_input',
			field: 'templateParameters',
		});
		const noOptIn = await write(api, 'send_message', {
			...TEMPLATE,
			recipientOptInConfirmed: undefined,
		});
		expect(noOptIn.body.error).toMatchObject({
			code: 'invalid_input',
			field: 'recipientOptInConfirmed',
		});
		const onQr = await write(api, 'send_message', { ...TEMPLATE, channel: 'qr' });
		expect(onQr.body.error).toMatchObject({ code: 'invalid_input', field: 'channel' });
	});

	it('refuses templates that are pending or unknown', async () => {
		const pending = await write(api, 'send_message', {
			...TEMPLATE,
			templateName: 'spring_sale',
			templateParameters: ['20%'],
		});
		expect(pending.status).toBe(422);
		expect(pending.body.error.message).toMatch(/PENDING/);
		await api.control('POST', '/templates/review', {
			name: 'spring_sale',
			language: 'en',
			status: 'APPROVED',
		});
		expect(
			(
				await write(api, 'send_message', {
					...TEMPLATE,
					templateName: 'spring_sale',
					templateParameters: ['20%'],
				})
			).status,
		).toBe(200);
		expect((await write(api, 'send_message', { ...TEMPLATE, templateLanguage: 'de' })).status).toBe(
			422,
		);
	});

	it('refuses numbers blocked by the number filters, in exclude and include mode', async () => {
		const blocked = await write(api, 'send_message', {
			channel: 'qr',
			phoneNumber: DEMO.excludedPhone,
			text: 'hi',
		});
		expect(blocked.status).toBe(422);
		expect(blocked.body.error.message).toMatch(/filter/);
		await api.control('POST', '/filters', {
			mode: 'include',
			entries: [{ phone: `+${DEMO.bob.phone}` }],
		});
		expect(
			(
				await write(api, 'send_message', {
					channel: 'qr',
					phoneNumber: DEMO.alice.phone,
					text: 'hi',
				})
			).status,
		).toBe(422);
		expect(
			(await write(api, 'send_message', { channel: 'qr', phoneNumber: DEMO.bob.phone, text: 'hi' }))
				.status,
		).toBe(200);
	});

	it('edits own QR text messages for 15 minutes only', async () => {
		const sent = await write(api, 'send_message', {
			channel: 'qr',
			phoneNumber: DEMO.alice.phone,
			text: 'Pick-up at 5',
		});
		api.sandbox.clock.advance(14 * 60_000);
		const edit = await write(api, 'edit_message', {
			targetMessageId: sent.body.message_id,
			text: 'Pick-up at 6',
		});
		expect(edit.body).toMatchObject({ edited: true, text: 'Pick-up at 6' });
		api.sandbox.clock.advance(2 * 60_000);
		const late = await write(api, 'edit_message', {
			targetMessageId: sent.body.message_id,
			text: 'Pick-up at 7',
		});
		expect(late.status).toBe(422);
		expect(late.body.error.message).toMatch(/15 minutes/);
	});

	it('edits and deletes only messages the QR account sent, and forwards only one-to-one QR messages', async () => {
		const incoming = api.sandbox.state
			.account('acc_demo')
			.messages.find((m) => !m.fromMe && m.channel === 'qr' && m.chatType === 'group');
		expect(
			(await write(api, 'edit_message', { targetMessageId: incoming!.id, text: 'x' })).status,
		).toBe(422);
		expect((await write(api, 'delete_message', { targetMessageId: incoming!.id })).status).toBe(
			422,
		);
		expect(
			(
				await write(api, 'forward_message', {
					phoneNumber: DEMO.alice.phone,
					sourceMessageId: incoming!.id,
				})
			).status,
		).toBe(422);
		const sent = await write(api, 'send_message', {
			channel: 'qr',
			phoneNumber: DEMO.alice.phone,
			text: 'oops',
		});
		expect(
			(await write(api, 'delete_message', { targetMessageId: sent.body.message_id })).body,
		).toMatchObject({ deleted: true });
		expect(
			(await write(api, 'delete_message', { targetMessageId: sent.body.message_id })).status,
		).toBe(422);
	});

	it("counts the Business window from the customer's last message, as the sandbox clock moves", async () => {
		const check = async () =>
			(
				await api.call('check_recipient_send_options', {
					channel: 'business',
					phoneNumber: DEMO.dave.phone,
				})
			).body;
		// Dave last wrote two days before the start: the check says when, and that a template is needed.
		const wroteAt = api.sandbox.clock.now() - 48 * HOUR;
		expect(await check()).toMatchObject({
			customer_service_window_open: false,
			last_customer_message_at: new Date(wroteAt).toISOString(),
			needs_approved_template: true,
		});
		api.sandbox.inject.injectMessage({
			channel: 'business',
			from: { phone: DEMO.dave.phone, name: DEMO.dave.name },
			text: 'Hello again',
		});
		const writes = api.sandbox.clock.now();
		expect(await check()).toMatchObject({
			customer_service_window_open: true,
			last_customer_message_at: new Date(writes).toISOString(),
			window_expires_at: new Date(writes + 24 * HOUR).toISOString(),
			free_form_allowed: true,
		});
		api.sandbox.clock.advance(24 * HOUR);
		expect(await check()).toMatchObject({
			customer_service_window_open: false,
			window_expires_at: null,
			needs_approved_template: true,
		});
		// The account's own messages do not reopen it.
		const own = await write(api, 'send_message', {
			channel: 'business',
			phoneNumber: DEMO.dave.phone,
			text: 'Are you there?',
		});
		expect(own.status).toBe(422);
	});

	it('holds a send without a channel on a Business-only account to the window, and reports it on the check', async () => {
		await api.control('POST', '/channels/qr/disconnect', {});
		const outside = await write(api, 'send_message', {
			phoneNumber: DEMO.dave.phone,
			text: 'Calling you now',
		});
		expect(outside.status).toBe(422);
		expect(outside.body.error.message).toMatch(/24 hours.*template/);
		const inside = await write(api, 'send_message', { phoneNumber: DEMO.carol.phone, text: 'Yes' });
		expect(inside.body).toMatchObject({ status: 'accepted', channel: 'business' });
		const check = await api.call('check_recipient_send_options', {
			phoneNumber: DEMO.dave.phone,
		});
		expect(check.body).toMatchObject({
			channel: 'business',
			customer_service_window_open: false,
			needs_approved_template: true,
		});
	});

	it('reports send options: filters, history and the Business window', async () => {
		const carol = await api.call('check_recipient_send_options', {
			channel: 'business',
			phoneNumber: `+${DEMO.carol.phone}`,
		});
		expect(carol.body).toMatchObject({
			connection_ready: true,
			passes_filters: true,
			history_exists: true,
			customer_service_window_open: true,
			free_form_allowed: true,
			needs_approved_template: false,
		});
		const dave = await api.call('check_recipient_send_options', {
			channel: 'business',
			conversationId: DEMO.dave.phone,
		});
		expect(dave.body).toMatchObject({
			customer_service_window_open: false,
			needs_approved_template: true,
		});
		const blocked = await api.call('check_recipient_send_options', {
			channel: 'qr',
			phoneNumber: DEMO.excludedPhone,
		});
		expect(blocked.body).toMatchObject({
			passes_filters: false,
			history_exists: false,
			daily_send_limit: 50,
		});
		expect(
			(await api.call('check_recipient_send_options', { phoneNumber: DEMO.alice.phone })).body.error
				.field,
		).toBe('channel');
	});

	it('tracks Business delivery through injected status updates and emits message.status', async () => {
		const emit = vi.spyOn(api.sandbox.webhooks, 'emit');
		const sent = await write(api, 'send_message', {
			channel: 'business',
			phoneNumber: DEMO.carol.phone,
			text: 'On its way',
		});
		expect(
			(await api.call('get_send_status', { message_id: sent.body.message_id })).body.status,
		).toBe('accepted');
		await api.control('POST', '/inject/status', {
			message_id: sent.body.message_id,
			status: 'delivered',
		});
		expect(
			(await api.call('get_send_status', { message_id: sent.body.message_id })).body.status,
		).toBe('delivered');
		expect(emit).toHaveBeenLastCalledWith(
			'acc_demo',
			'message.status',
			expect.objectContaining({
				message_id: sent.body.message_id,
				conversation_id: DEMO.carol.phone,
				channel: 'business',
				status: 'delivered',
				errors: [],
			}),
		);
		const qr = await write(api, 'send_message', {
			channel: 'qr',
			phoneNumber: DEMO.alice.phone,
			text: 'x',
		});
		expect(
			(
				await api.control('POST', '/inject/status', {
					message_id: qr.body.message_id,
					status: 'delivered',
				})
			).status,
		).toBe(400);
	});

	it("accepts a template to a number on no network, then reports it failed with the provider's error", async () => {
		const emit = vi.spyOn(api.sandbox.webhooks, 'emit');
		const sent = await write(api, 'send_message', {
			...TEMPLATE,
			phoneNumber: DEMO.unregisteredPhone,
		});
		expect(sent.body).toMatchObject({
			status: 'accepted',
			conversation_id: DEMO.unregisteredPhone,
		});
		expect(
			(await api.call('get_send_status', { message_id: sent.body.message_id })).body.status,
		).toBe('failed');
		expect(
			emit.mock.calls.map(([, type, data]) => [type, (data as { status?: string }).status]),
		).toEqual([
			['message.sent', undefined],
			['message.status', 'failed'],
		]);
		expect(emit).toHaveBeenLastCalledWith(
			'acc_demo',
			'message.status',
			expect.objectContaining({
				message_id: sent.body.message_id,
				conversation_id: DEMO.unregisteredPhone,
				errors: [{ code: '131026', title: 'Message undeliverable' }],
			}),
		);
		emit.mockClear();
		await write(api, 'send_message', TEMPLATE);
		expect(emit.mock.calls.map(([, type]) => type)).toEqual(['message.sent']);
	});

	it('emits message.sent with from_me true for own sends in saved chats only', async () => {
		const emit = vi.spyOn(api.sandbox.webhooks, 'emit');
		await write(api, 'send_message', {
			channel: 'qr',
			phoneNumber: DEMO.alice.phone,
			text: 'Thanks!',
		});
		expect(emit).toHaveBeenCalledTimes(1);
		const [account, type, data] = emit.mock.calls[0];
		expect([account, type]).toEqual(['acc_demo', 'message.sent']);
		expect(Object.keys((data as { message: object }).message).sort()).toEqual([
			'attachment',
			'channel',
			'chat_type',
			'conversation_id',
			'from',
			'from_me',
			'has_attachment',
			'id',
			'quoted_message_id',
			'stored_message_id',
			'text',
			'timestamp',
			'type',
		]);
		expect(data).toMatchObject({ message: { from_me: true, text: 'Thanks!', channel: 'qr' } });
		emit.mockClear();
		// A group that is not selected is not saved: sending into it emits nothing.
		const group = await write(api, 'create_group', {
			subject: 'Pop-up',
			participants: [DEMO.alice.phone],
		});
		await write(api, 'send_message', {
			channel: 'qr',
			conversationId: group.body.jid,
			text: 'Welcome',
		});
		expect(emit).not.toHaveBeenCalled();
	});
});
