import { describe, expect, it } from 'vitest';

import { eventItemJson } from '../../../nodes/MessagingAutomationTrigger/output';

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
});
