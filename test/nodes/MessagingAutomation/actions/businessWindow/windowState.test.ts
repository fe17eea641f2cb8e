import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	PROOF_MARGIN_MS,
	WINDOW_MS,
	windowFromCheck,
	windowFromItem,
	windowKey,
} from '../../../../../nodes/MessagingAutomation/actions/businessWindow/windowState';

/* The one window rule: what a check answer says, and what a trigger item proves without one. */

const NOW = Date.parse('2026-11-27T12:00:00.000Z');
const CUSTOMER = '5511987654321';
const at = (ago: number) => new Date(NOW - ago).toISOString();

const received = (ago: number, extra: IDataObject = {}) => ({
	event_id: 'evt_1',
	event_type: 'message.received',
	conversation_id: CUSTOMER,
	channel: 'business',
	data: {
		message: {
			conversation_id: CUSTOMER,
			channel: 'business',
			from_me: false,
			timestamp: at(ago),
			...extra,
		},
	},
});

describe('the window from a check', () => {
	it('open until the time the service gives, else the last message plus 24 hours', () => {
		expect(
			windowFromCheck({ customer_service_window_open: true, window_expires_at: at(-3_600_000) }),
		).toEqual({ open: true, until: at(-3_600_000), provenBy: 'check' });
		expect(windowFromCheck({ free_form_allowed: true, last_customer_message_at: at(0) })).toEqual({
			open: true,
			until: at(-WINDOW_MS),
			provenBy: 'check',
		});
	});

	it('closed since 24 hours after the last message, or with no time when the customer never wrote', () => {
		expect(
			windowFromCheck({
				needs_approved_template: true,
				window_expires_at: null,
				last_customer_message_at: at(2 * WINDOW_MS),
			}),
		).toEqual({ open: false, closedSince: at(WINDOW_MS), provenBy: 'check' });
		expect(windowFromCheck({ customer_service_window_open: false })).toEqual({
			open: false,
			closedSince: null,
			provenBy: 'check',
		});
	});
});

describe('the window an input item proves', () => {
	const proven = (json: IDataObject) => windowFromItem(json, CUSTOMER, NOW);

	it("a customer's message younger than 24 hours minus the margin proves it open", () => {
		expect(proven(received(3_600_000))).toEqual({
			open: true,
			until: new Date(NOW - 3_600_000 + WINDOW_MS).toISOString(),
			provenBy: 'event',
		});
		expect(proven(received(WINDOW_MS - PROOF_MARGIN_MS - 1))?.open).toBe(true);
	});

	it('proves nothing near the end of the window, for another chat, an own message or another event', () => {
		expect(proven(received(WINDOW_MS - PROOF_MARGIN_MS))).toBeUndefined();
		expect(proven(received(60_000, { conversation_id: '4915112345678' }))).toBeUndefined();
		expect(proven(received(60_000, { from_me: true }))).toBeUndefined();
		expect(proven(received(60_000, { channel: 'qr' }))).toBeUndefined();
		expect(proven({ ...received(60_000), event_type: 'message.sent' })).toBeUndefined();
		expect(proven({ conversation_id: CUSTOMER })).toBeUndefined();
	});

	it("A message stamped up to 15 minutes in n8n's future counts as just written", () => {
		expect(proven(received(-1_000))).toEqual({
			open: true,
			until: new Date(NOW + 1_000 + WINDOW_MS).toISOString(),
			provenBy: 'event',
		});
		expect(proven(received(-PROOF_MARGIN_MS))?.open).toBe(true);
		expect(proven(received(-PROOF_MARGIN_MS - 1))).toBeUndefined();
	});

	it('a grouped turn proves it by its latest message', () => {
		const turn = {
			...received(2 * WINDOW_MS),
			messages: [received(2 * WINDOW_MS).data.message, received(60_000).data.message],
		};
		expect(proven(turn)?.open).toBe(true);
	});

	it('matches a phone number or a conversation id to the chat', () => {
		expect(windowKey({ phoneNumber: CUSTOMER })).toBe(CUSTOMER);
		expect(windowKey({ conversationId: CUSTOMER })).toBe(CUSTOMER);
		expect(windowKey({})).toBeUndefined();
	});
});
