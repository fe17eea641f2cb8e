import { describe, expect, it } from 'vitest';

import { eventItemJson } from '../../../../nodes/MessagingAutomationTrigger/run/output';

const base = {
	id: 'evt_9',
	created_at: '2026-10-01T00:00:00.000Z',
	api_version: '2026-10-01',
	account_id: 'acc_1',
};

describe('eventItemJson', () => {
	it('adds the reply fields of a message event next to the untouched envelope', () => {
		const envelope = {
			...base,
			type: 'message.received',
			future_field: 1,
			data: {
				message: {
					id: 'wamid.1',
					conversation_id: '4915112345678@s.whatsapp.net',
					channel: 'qr',
					text: 'hi',
					from: { phone: '4915112345678', name: 'Alice' },
				},
			},
		};
		expect(eventItemJson(envelope)).toEqual({
			...envelope,
			event_id: 'evt_9',
			event_type: 'message.received',
			conversation_id: '4915112345678@s.whatsapp.net',
			channel: 'qr',
			text: 'hi',
			sender: { phone: '4915112345678', name: 'Alice' },
			message_id: 'wamid.1',
		});
	});

	it('reads status events from data, and fills what an event lacks with null', () => {
		const status = eventItemJson({
			...base,
			type: 'message.status',
			data: {
				message_id: 'wamid.2',
				conversation_id: '447700900123',
				channel: 'business',
				status: 'delivered',
			},
		});
		expect(status).toMatchObject({
			conversation_id: '447700900123',
			channel: 'business',
			message_id: 'wamid.2',
			text: null,
			sender: null,
		});

		const test = eventItemJson({
			...base,
			type: 'webhook.test',
			data: { message: 'queued at creation' },
		});
		expect(test).toMatchObject({
			event_id: 'evt_9',
			conversation_id: null,
			channel: null,
			text: null,
			sender: null,
			message_id: null,
		});
	});

	it('says in plain words why a Business message failed, and when it was the 24-hour window', () => {
		const status = (data: Record<string, unknown>) =>
			eventItemJson({
				...base,
				type: 'message.status',
				data: {
					message_id: 'wamid.3',
					conversation_id: '447700900123',
					channel: 'business',
					...data,
				},
			});
		expect(status({ status: 'delivered', errors: [] }).status_reason).toBeNull();
		expect(
			status({
				status: 'failed',
				errors: [{ code: '131026', title: 'Message undeliverable' }],
			}).status_reason,
		).toBe('The message was not delivered: Message undeliverable (code 131026).');
		expect(
			status({ status: 'failed', errors: [{ code: 131047, title: 'Re-engagement message' }] })
				.status_reason,
		).toBe(
			'The message was not delivered: more than 24 hours passed since the customer last wrote, so only an approved template reaches them (Re-engagement message, code 131047).',
		);
		expect(status({ status: 'failed' }).status_reason).toBe(
			'The message was not delivered; the provider gave no reason.',
		);
		// Other events keep their fields as they were.
		expect(
			eventItemJson({ ...base, type: 'message.received', data: { message: {} } }),
		).not.toHaveProperty('status_reason');
	});
});
