import { sleep, type IAllExecuteFunctions } from 'n8n-workflow';

import { getMessagesTool } from '../catalogue/tools/get_messages';
import type { MessagingClient } from '../client';
import { MessagingApiError } from '../client/errors';
import { Pacer } from '../client/pacer';
import { DEFAULT_RETRY_OPTIONS, retryDecision } from '../client/retry';
import { mergeTimelines, timelineOf, type TimelineMessage } from './timeline';
import { monotonicNow } from '../monotonic';
import { createNodeClient } from '../transport/nodeClient';

/** get_messages pages (the service allows up to 100 a call). */
const PAGE_SIZE = 50;
/** How far back a chain of quick messages is followed: a person typing non-stop for this many messages. */
export const MAX_PAGES = 4;
/** Each look-up at most; a read's `until` cuts it shorter. */
const READ_TIMEOUT_MS = 15_000;

/** A call is not tried again with less time than this left: its own error would only say it ran out. */
const SHORTEST_CALL_MS = 500;

/** Why a read failed, as a run's fields say it. */
export const reasonOf = (error: unknown) =>
	error instanceof Error ? error.message : String(error);

export interface ConversationRead {
	conversationId: string;
	timeline: TimelineMessage[];
	/** Where the next older page starts; undefined once the whole saved conversation was read. */
	cursor?: string;
	reads: number;
	/**
	 * Monotonic time the call that answered its first page was sent: the read shows what the
	 * service had saved by then, nothing of the time its failed attempts and the waits took.
	 */
	sentAt: number;
}

interface MessagesPage {
	messages?: unknown;
	items?: unknown;
	next_cursor?: unknown;
}

/**
 * The package's conversation reads of one key (the trigger's and the chat memory's), paced together
 * in this process to the service's 600 a minute, however many conversations wait: one key's reads
 * are one budget. The service still answers
 * 429 when other processes or the workflows' own calls share the key; that delays, never splits.
 */
const readPacers = new Map<string, Pacer>();

function readPacer(fingerprint: string): Pacer {
	let pacer = readPacers.get(fingerprint);
	if (!pacer) {
		pacer = new Pacer({ now: monotonicNow, sleep });
		readPacers.set(fingerprint, pacer);
	}
	return pacer;
}

/**
 * Reads one conversation with the node's credential, pages of get_messages, newest first: the
 * trigger's for a delivery, the chat memory's for an Agent run.
 */
export class ConversationReader {
	private client?: Promise<MessagingClient>;

	/**
	 * `minimum`: at least that many messages in the first page (history, takeover). Each read and
	 * each older page is given an `until` (monotonic: shared/monotonic.ts): the service may stay unreadable until then
	 * (429s waited out as Retry-After says, 503s and dropped connections backed off, no call left
	 * running past it) before the read fails with the last error.
	 */
	constructor(
		private readonly context: IAllExecuteFunctions,
		private readonly minimum: number,
	) {}

	async read(conversationId: string, until: number): Promise<ConversationRead> {
		const read: ConversationRead = { conversationId, timeline: [], reads: 0, sentAt: 0 };
		read.sentAt = await this.page(
			read,
			Math.min(100, Math.max(PAGE_SIZE, this.minimum + 10)),
			until,
		);
		return read;
	}

	/** The next older page into `read`. */
	async older(read: ConversationRead, until: number): Promise<void> {
		await this.page(read, PAGE_SIZE, until);
	}

	/** Older pages into `read` until the message `id` is in it, the conversation starts or `maxReads` reads were made. */
	async readBackTo(
		read: ConversationRead,
		id: string,
		until: number,
		maxReads = MAX_PAGES,
	): Promise<void> {
		while (read.cursor && read.reads < maxReads && !read.timeline.some((entry) => entry.id === id))
			await this.older(read, until);
	}

	/** One page into `read`; returns the monotonic time the call that answered it was sent. */
	private async page(read: ConversationRead, limit: number, until: number): Promise<number> {
		const input = {
			conversationId: read.conversationId,
			limit,
			...(read.cursor ? { cursor: read.cursor } : {}),
		};
		const client = await (this.client ??= createNodeClient(this.context, {
			timeoutMs: READ_TIMEOUT_MS,
			retry: { maxAttempts: 1 },
			sharedPacer: readPacer,
		}));
		let sentAt = monotonicNow();
		const { data } = await this.patiently(async () => {
			sentAt = monotonicNow();
			return await client.callTool<MessagesPage>(getMessagesTool.name, input, {
				timeoutMs: Math.max(1, Math.min(READ_TIMEOUT_MS, until - monotonicNow())),
			});
		}, until);
		read.reads++;
		read.timeline = mergeTimelines(timelineOf(data), read.timeline);
		read.cursor =
			typeof data?.next_cursor === 'string' && data.next_cursor !== ''
				? data.next_cursor
				: undefined;
		return sentAt;
	}

	/** One call, retried by the client's rules until it succeeds or `until` would pass; then its last error. */
	private async patiently<T>(call: () => Promise<T>, until: number): Promise<T> {
		for (let attempt = 1; ; attempt++) {
			const outcome = await call().then(
				(value) => ({ ok: true as const, value }),
				(error: unknown) => ({ ok: false as const, error }),
			);
			if (outcome.ok) return outcome.value;
			const delayMs = this.retryDelay(outcome.error, attempt, until);
			if (delayMs === undefined) return await Promise.reject(outcome.error);
			await sleep(delayMs);
		}
	}

	/** How long to wait before trying again, or undefined when the error is final or `until` would pass. */
	private retryDelay(error: unknown, attempt: number, until: number): number | undefined {
		if (!(error instanceof MessagingApiError)) return undefined;
		const decision = retryDecision(
			error,
			attempt,
			{
				...DEFAULT_RETRY_OPTIONS,
				maxAttempts: Number.POSITIVE_INFINITY,
				maxRetryAfterMs: Math.max(0, until - monotonicNow()),
			},
			Math.random,
		);
		if (!decision.retry || monotonicNow() + decision.delayMs + SHORTEST_CALL_MS > until)
			return undefined;
		return Math.max(50, decision.delayMs);
	}
}
