import type { IDataObject } from 'n8n-workflow';
import { vi } from 'vitest';

import { DEMO } from '../../../../sandbox';
import type { Harness } from '../../harness';

/* What the Business window tests share: the trigger's item for a customer's message, a template. */

/** The trigger's item for a Business message the customer wrote `msAgo` before now. */
export function businessMessageEvent(
	eventId: string,
	conversationId: string,
	msAgo: number,
): IDataObject {
	return {
		event_id: eventId,
		event_type: 'message.received',
		conversation_id: conversationId,
		channel: 'business',
		data: {
			message: {
				conversation_id: conversationId,
				channel: 'business',
				from_me: false,
				timestamp: new Date(Date.now() - msAgo).toISOString(),
			},
		},
	};
}

export const REPLY = { templateName: 'service_reply', templateLanguage: 'en' };

/** An approved template with one variable, for sends outside the window. */
export function approveReplyTemplate(h: Harness): void {
	h.sandbox.state.account(DEMO.accountId).templates.push({
		id: 'tpl_reply001',
		name: REPLY.templateName,
		language: REPLY.templateLanguage,
		category: 'UTILITY',
		body: 'A message from our team: {{1}}',
		bodyExamples: ['Your order shipped'],
		header: null,
		footer: null,
		status: 'APPROVED',
		createdAt: Date.now(),
	});
}

/** The account's own Business messages in the sandbox, oldest first. */
export function ownBusinessMessages(h: Harness) {
	return h.sandbox.state
		.account(DEMO.accountId)
		.messages.filter((message) => message.fromMe && message.channel === 'business');
}

/** When a customer's window closed: 24 hours after their last message in the sandbox. */
export function windowClosedAt(h: Harness, phone: string): string {
	const wrote = h.sandbox.state
		.account(DEMO.accountId)
		.messages.filter((message) => message.conversationId === phone && !message.fromMe)
		.map((message) => message.timestamp);
	return new Date(Math.max(...wrote) + 24 * 3_600_000).toISOString();
}

/**
 * Time passing within one run: n8n's clock and the sandbox's (both read Date.now) move `ms` ahead
 * right after the sandbox has answered the first call of `tool`, before the node hears back.
 * Undone by vi.restoreAllMocks and the sandbox's reset.
 */
export function timePassesAfter(h: Harness, tool: string, ms: number): void {
	const wall = Date.now.bind(Date);
	let ahead = 0;
	vi.spyOn(Date, 'now').mockImplementation(() => wall() + ahead);
	const calls = h.sandbox.state.calls;
	const record = calls.push.bind(calls);
	calls.push = (...recorded) => {
		if (ahead === 0 && recorded.some((call) => call.tool === tool)) ahead = ms;
		return record(...recorded);
	};
}

/** A Business customer of one test, who last wrote `msAgo` before the sandbox's now. */
export function customerWhoWrote(h: Harness, phone: string, msAgo: number): { phone: string } {
	h.sandbox.inject.injectMessage({
		channel: 'business',
		from: { phone, name: 'Window Customer' },
		text: 'Hi',
		savedLateMs: msAgo,
	});
	return { phone };
}
