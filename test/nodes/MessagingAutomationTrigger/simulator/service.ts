/**
 * A small in-memory model of the service, as far as the trigger's delivery path meets it (spec:
 * get_messages, Events, Delivery, Limits): saved messages read newest first in pages, reads that
 * fail as a case says (429 with Retry-After, 503), and each event's deliveries with the spec's
 * retry schedule and its ten-second receiver time-out. Everything runs on the virtual clock.
 */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { signatureHeaders } from '../../../sandbox/webhooks/signing';
import type { VirtualTime } from './virtualTime';

export const SECRET = 'whsec_c2ltdWxhdG9yLXNpZ25pbmctc2VjcmV0LTAx';
/** The two people's phones; each writes in a one-to-one chat of their own. */
const PEOPLE = [
	{ phone: '4917012345678', name: 'Alice' },
	{ phone: '4917087654321', name: 'Bob' },
];
export const conversationOf = (person: number) => `${PEOPLE[person].phone}@s.whatsapp.net`;
const ACCOUNT_PHONE = '15550100001';
/** Spec, Delivery 2: after a failure, each ±20 %; nine attempts in all. */
export const RETRY_SCHEDULE_MS = [
	30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000,
];
/** Spec, Delivery 4 and Limits. */
export const RECEIVER_TIMEOUT_MS = 10_000;

export interface SavedMessage {
	id: string;
	text: string;
	/** The phone's timestamp: what the service stores and the trigger orders by. */
	stampedAt: number;
	/** Service time it was saved; a read before it does not show it. */
	savedAt: number;
	/** Whose chat it is in. */
	person: number;
	/** The account's own message (typed on its phone): no message.received for it. */
	fromMe?: boolean;
	quotedId?: string;
	/** A Send and Wait question: the idempotency key its send used (get_send_status finds it by it). */
	sendKey?: string;
}

export type ReadFault = 429 | 503 | undefined;

/** The spec's Message object for a person's message in a one-to-one QR chat. */
export function messageObject(message: SavedMessage): IDataObject {
	return {
		id: message.id,
		stored_message_id: `stored_${message.id}`,
		conversation_id: conversationOf(message.person),
		channel: 'qr',
		chat_type: 'individual',
		from: message.fromMe
			? { phone: ACCOUNT_PHONE, name: 'Support' }
			: { ...PEOPLE[message.person] },
		from_me: message.fromMe === true,
		type: 'text',
		text: message.text,
		quoted_message_id: message.quotedId ?? null,
		has_attachment: false,
		attachment: null,
		timestamp: new Date(message.stampedAt).toISOString(),
	};
}

/** The node's credential for this service, as n8n hands it to a context. */
export const credentialFor = (apiKey: string) => ({
	apiKey,
	baseUrl: 'http://service.sim',
	authScheme: 'bearer',
});

const noop = () => undefined;
/** The nodes' logger in the simulator: cases log a lot and nobody reads it. */
export const QUIET_LOGGER = { debug: noop, info: noop, warn: noop, error: noop, verbose: noop };

interface FullResponse {
	body: unknown;
	headers: Record<string, string>;
	statusCode: number;
}

const errorBody = (code: string, message: string, extra: IDataObject = {}) => ({
	error: { code, message, ...extra },
});

export class ServiceModel {
	readonly messages: SavedMessage[] = [];
	/** get_messages calls that reached the service, and how they ended: 200, 429, 503, or 0 (the caller gave up first). */
	readonly reads: Array<{ at: number; status: number; injected: boolean }> = [];

	constructor(
		private readonly time: VirtualTime,
		/** How the n-th get_messages call fails (undefined: it succeeds). */
		private readonly readFaults: readonly ReadFault[],
		private readonly readLatencyMs: number,
	) {}

	/** The Catch-Up poll's calls: list_conversations, and its reads of chats (get_messages). */
	readonly listings: number[] = [];
	readonly pollReads: number[] = [];

	/**
	 * `httpRequestWithAuthentication` of a process: answered after the read latency. The Catch-Up
	 * poll's reads (`by: 'poll'`) are counted apart and never fail: the case's read faults and the
	 * reads bound are the trigger's (limits.ts).
	 */
	async request(
		options: IHttpRequestOptions,
		by: 'trigger' | 'poll' = 'trigger',
	): Promise<FullResponse> {
		const url = String(options.url);
		if (url === '/api/v1/tools/get_send_status') return this.sendStatus(options);
		if (url === '/api/v1/tools/list_conversations') return await this.listConversations(options);
		if (url !== '/api/v1/tools/get_messages')
			return {
				statusCode: 404,
				headers: {},
				body: errorBody('unknown_tool', `${url} is not modelled`),
			};
		if (by === 'poll') {
			this.pollReads.push(this.time.serviceNow());
			await this.latency(options.abortSignal as AbortSignal | undefined, noop);
			return { statusCode: 200, headers: {}, body: this.page(...pageOf(options)) };
		}
		const fault = this.readFaults[this.reads.length];
		const read = {
			at: this.time.serviceNow(),
			status: fault ?? 200,
			injected: fault !== undefined,
		};
		this.reads.push(read);
		await this.latency(options.abortSignal as AbortSignal | undefined, () => (read.status = 0));
		if (fault === 429)
			return {
				statusCode: 429,
				headers: { 'retry-after': '1' },
				body: errorBody('rate_limited', 'Too many read calls', { retry_after: 1 }),
			};
		if (fault === 503)
			return {
				statusCode: 503,
				headers: {},
				body: errorBody('tool_error', 'get_messages is unavailable'),
			};
		return { statusCode: 200, headers: {}, body: this.page(...pageOf(options)) };
	}

	/**
	 * The account's chats, newest activity first (the sandbox's shape: `conversations`, each with
	 * `last_message_at`, its newest saved message's timestamp), with the service's `Date`, by which
	 * the poll tells how long a chat has been quiet.
	 */
	private async listConversations(options: IHttpRequestOptions): Promise<FullResponse> {
		this.listings.push(this.time.serviceNow());
		await this.latency(options.abortSignal as AbortSignal | undefined, noop);
		const now = this.time.serviceNow();
		const newest = new Map<number, number>();
		for (const message of this.messages)
			if (message.savedAt <= now)
				newest.set(
					message.person,
					Math.max(newest.get(message.person) ?? -Infinity, message.stampedAt),
				);
		const chats = [...newest]
			.sort((a, b) => b[1] - a[1])
			.map(([person, at]) => ({
				conversation_id: conversationOf(person),
				channel: 'qr',
				chat_type: 'individual',
				last_message_at: new Date(at).toISOString(),
			}));
		const { limit, cursor } = JSON.parse(String(options.body)) as {
			limit: number;
			cursor?: string;
		};
		const offset = Number(cursor ?? 0);
		const next = offset + limit < chats.length ? String(offset + limit) : null;
		return {
			statusCode: 200,
			headers: { date: new Date(now).toUTCString() },
			body: { conversations: chats.slice(offset, offset + limit), next_cursor: next },
		};
	}

	/** Send and Wait's look-up of its question, by the send's key. */
	readonly statusLookups: number[] = [];

	private sendStatus(options: IHttpRequestOptions): FullResponse {
		this.statusLookups.push(this.time.serviceNow());
		const { idempotencyKey } = JSON.parse(String(options.body)) as { idempotencyKey: string };
		const question = this.messages.find((message) => message.sendKey === idempotencyKey);
		if (!question)
			return {
				statusCode: 422,
				headers: {},
				body: errorBody('tool_error', 'No send with that key'),
			};
		const body = {
			message_id: question.id,
			conversation_id: messageObject(question).conversation_id,
			status: 'sent',
		};
		return { statusCode: 200, headers: {}, body };
	}

	/** The answer's time on the wire; the caller's abort ends the wait as axios does. */
	private async latency(signal: AbortSignal | undefined, aborted: () => void): Promise<void> {
		await new Promise<void>((resolve, reject) => {
			const abort = () => {
				clearTimeout(timer);
				aborted();
				reject(
					Object.assign(new Error('canceled'), { code: 'ERR_CANCELED', name: 'CanceledError' }),
				);
			};
			const timer = setTimeout(() => {
				signal?.removeEventListener('abort', abort);
				resolve();
			}, this.readLatencyMs);
			if (signal?.aborted) abort();
			else signal?.addEventListener('abort', abort, { once: true });
		});
	}

	/**
	 * A chat's saved messages newest first (by their timestamp, as the service orders them), one page.
	 * Of two with the same timestamp the one saved later is newer (saved at the same time: the one
	 * written later), as a list kept newest first has it.
	 */
	private page(conversationId: string, limit: number, offset: number): IDataObject {
		const now = this.time.serviceNow();
		const saved = this.messages
			.map((message, written) => ({ message, written }))
			.filter(
				({ message }) =>
					message.savedAt <= now && conversationOf(message.person) === conversationId,
			)
			.sort(
				(a, b) =>
					b.message.stampedAt - a.message.stampedAt ||
					b.message.savedAt - a.message.savedAt ||
					b.written - a.written,
			)
			.map(({ message }) => message);
		const items = saved.slice(offset, offset + limit).map(messageObject);
		const next = offset + limit < saved.length ? String(offset + limit) : null;
		return { messages: items, next_cursor: next };
	}

	/** The signed delivery of `message`'s event, as sent now. */
	delivery(eventId: string, message: SavedMessage, queuedAt: number): Delivery {
		const body = JSON.stringify({
			id: eventId,
			type: 'message.received',
			created_at: new Date(queuedAt).toISOString(),
			api_version: '2026-10-01',
			account_id: 'acc_sim',
			data: { message: messageObject(message) },
		});
		const sentAt = this.time.serviceNow();
		return { body, headers: signatureHeaders([SECRET], eventId, sentAt, body), sentAt };
	}
}

/** A get_messages call's chat and page. */
function pageOf(options: IHttpRequestOptions): [string, number, number] {
	const input = JSON.parse(String(options.body)) as {
		conversationId: string;
		limit: number;
		cursor?: string;
	};
	return [input.conversationId, input.limit, Number(input.cursor ?? 0)];
}

export interface Delivery {
	body: string;
	headers: Record<string, string>;
	/** Service time it was sent. */
	sentAt: number;
}
