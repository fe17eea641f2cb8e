import { describe, expect, it } from 'vitest';

import {
	filterEvent,
	parseStatusList,
	type EventFilters,
} from '../../../../nodes/MessagingAutomationTrigger/receive/eventFilter';
import type { EventEnvelope } from '../../../../nodes/shared/webhooks/events';

const ALL: EventFilters = {
	eventTypes: ['message.received', 'message.sent', 'message.status', 'webhook.test'],
	channels: [],
	ignoreOwnMessages: false,
	statusValues: [],
};

const envelope = (type: string, data: Record<string, unknown>): EventEnvelope => ({
	id: 'evt_1',
	type,
	created_at: '2026-10-01T00:00:00.000Z',
	api_version: '2026-10-01',
	account_id: 'acc_1',
	data,
});

const message = (fields: Record<string, unknown>) =>
	envelope(fields.from_me ? 'message.sent' : 'message.received', {
		message: { channel: 'qr', chat_type: 'individual', ...fields },
	});

describe('filterEvent', () => {
	it('passes everything when only the event types are set', () => {
		expect(filterEvent(message({}), ALL)).toEqual({ pass: true });
	});

	it('drops event types that are not selected', () => {
		expect(filterEvent(envelope('connection.connected', { channel: 'qr' }), ALL)).toEqual({
			pass: false,
			reason: 'event type connection.connected is not selected',
		});
	});

	it('filters message and connection events by channel, but lets channel-less events through', () => {
		const businessOnly = {
			...ALL,
			eventTypes: [...ALL.eventTypes, 'connection.connected'],
			channels: ['business'],
		};
		expect(filterEvent(message({ channel: 'qr' }), businessOnly).pass).toBe(false);
		expect(filterEvent(message({ channel: 'business' }), businessOnly).pass).toBe(true);
		expect(
			filterEvent(envelope('connection.connected', { channel: 'qr' }), businessOnly).pass,
		).toBe(false);
		expect(filterEvent(envelope('webhook.test', { message: 'hi' }), businessOnly).pass).toBe(true);
	});

	it('treats chat_type "group" as a group and every other value as one-to-one', () => {
		const groups = { ...ALL, chatType: 'group' as const };
		const direct = { ...ALL, chatType: 'oneToOne' as const };
		expect(filterEvent(message({ chat_type: 'group' }), groups).pass).toBe(true);
		expect(filterEvent(message({ chat_type: 'individual' }), groups).pass).toBe(false);
		expect(filterEvent(message({ chat_type: 'individual' }), direct).pass).toBe(true);
		expect(filterEvent(message({ chat_type: undefined }), direct).pass).toBe(true);
	});

	it('ignores own messages only when asked', () => {
		const own = message({ from_me: true });
		expect(filterEvent(own, ALL).pass).toBe(true);
		expect(filterEvent(own, { ...ALL, ignoreOwnMessages: true })).toEqual({
			pass: false,
			reason: 'own message ignored',
		});
	});

	it('keeps message.status events with a listed status, case-insensitively', () => {
		const filters = { ...ALL, statusValues: parseStatusList(' Delivered, READ ,, ') };
		expect(filters.statusValues).toEqual(['delivered', 'read']);
		expect(filterEvent(envelope('message.status', { status: 'delivered' }), filters).pass).toBe(
			true,
		);
		expect(filterEvent(envelope('message.status', { status: 'FAILED' }), filters).pass).toBe(false);
		expect(filterEvent(envelope('message.status', {}), filters)).toEqual({
			pass: false,
			reason: 'status (none) is filtered out',
		});
		expect(filterEvent(message({}), filters).pass).toBe(true);
	});
});
