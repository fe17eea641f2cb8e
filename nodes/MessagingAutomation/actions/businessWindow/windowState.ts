import type { IDataObject } from 'n8n-workflow';

import { isRecord } from '../../../shared/guards';

/*
 * The Business customer service window (spec: send_message): free text reaches a person only
 * within 24 hours of their last incoming message; outside it, only an approved template. Every
 * Business send of the node decides by this one rule.
 */

export const WINDOW_MS = 24 * 60 * 60_000;
/**
 * An item from the trigger proves the window open without a read only while its message is
 * younger than the window by this much: room for clocks that differ and for the send itself.
 */
export const PROOF_MARGIN_MS = 15 * 60_000;

export type WindowState =
	/** `until` is null when the service did not say. */
	| { open: true; until: string | null; provenBy: 'check' | 'event' }
	/** `closedSince` is null when the customer never wrote (or the service did not say when). */
	| { open: false; closedSince: string | null; provenBy: 'check' };

/** Who the window belongs to: the Business conversation id is the person's phone digits. */
export function windowKey(recipient: Record<string, unknown>): string | undefined {
	const id = recipient.conversationId ?? recipient.phoneNumber;
	return typeof id === 'string' && id.trim() !== '' ? id.replace(/\D/g, '') : undefined;
}

function time(value: unknown): number | undefined {
	if (typeof value !== 'string' || value === '') return undefined;
	const at = Date.parse(value);
	return Number.isNaN(at) ? undefined : at;
}

const iso = (at: number | undefined) => (at === undefined ? null : new Date(at).toISOString());

/**
 * The window as check_recipient_send_options reports it. Its field names are not shown by the
 * spec (docs/assumptions.md): the answer is read as open unless it says a template is needed or
 * free text is not allowed, and the window's end is `window_expires_at`, else the customer's
 * last message time plus 24 hours.
 */
export function windowFromCheck(data: IDataObject): WindowState {
	const open =
		data.needs_approved_template !== true &&
		data.free_form_allowed !== false &&
		data.customer_service_window_open !== false;
	const last = time(data.last_customer_message_at);
	const ends = time(data.window_expires_at) ?? (last === undefined ? undefined : last + WINDOW_MS);
	return open
		? { open, until: iso(ends), provenBy: 'check' }
		: { open, closedSince: iso(ends), provenBy: 'check' };
}

/** Incoming Business messages an item from the trigger carries: the event's, or its turn's. */
function incomingMessages(json: IDataObject): IDataObject[] {
	const data = isRecord(json.data) ? json.data : {};
	const candidates = [data.message, ...(Array.isArray(json.messages) ? json.messages : [])];
	return candidates.filter(
		(message): message is IDataObject =>
			isRecord(message) && message.from_me === false && message.channel === 'business',
	);
}

/**
 * The window an input item proves open: a message the trigger delivered from this customer, less
 * than 24 hours (minus a margin) before `now`. Undefined when the item proves nothing. A message
 * stamped up to the margin after `now` is fresh by the service's clock, which runs ahead of n8n's (by
 * as much as the margin already allows the other way); one stamped further ahead proves nothing.
 */
export function windowFromItem(
	json: IDataObject | undefined,
	key: string,
	now: number,
): WindowState | undefined {
	if (!json || (json.event_type ?? json.type) !== 'message.received') return undefined;
	const times = incomingMessages(json)
		.filter((message) => String(message.conversation_id ?? '').replace(/\D/g, '') === key)
		.map((message) => time(message.timestamp))
		.filter((at): at is number => at !== undefined && at <= now + PROOF_MARGIN_MS);
	if (times.length === 0) return undefined;
	const last = Math.max(...times);
	if (now - last >= WINDOW_MS - PROOF_MARGIN_MS) return undefined;
	return { open: true, until: iso(last + WINDOW_MS), provenBy: 'event' };
}

/** The window's state on an output item: open until when, or closed since when. */
export function windowOutput(state: WindowState): IDataObject {
	return state.open
		? { state: 'open', open_until: state.until, checked_by: state.provenBy }
		: { state: 'closed', closed_since: state.closedSince, checked_by: state.provenBy };
}

/** "closed at 2026-11-26T09:00:00.000Z", or why no time is known. */
export function closedWhen(state: Extract<WindowState, { open: false }>): string {
	return state.closedSince === null
		? 'is closed: the customer has not written to this number in the last 24 hours'
		: `closed at ${state.closedSince}`;
}
