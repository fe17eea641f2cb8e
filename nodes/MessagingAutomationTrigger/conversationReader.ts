import { sleep, type IAllExecuteFunctions } from 'n8n-workflow';

import { getMessagesTool } from '../shared/catalogue/tools/get_messages';
import type { MessagingClient } from '../shared/client';
import { MessagingApiError } from '../shared/client/errors';
import { Pacer } from '../shared/client/pacer';
import { DEFAULT_RETRY_OPTIONS, retryDecision } from '../shared/client/retry';
import { mergeTimelines, timelineOf, type TimelineMessage } from '../shared/conversation/timeline';
import { createNodeClient } from '../shared/transport/nodeClient';

/** get_messages pages (the service allows up to 100 a call). */
const PAGE_SIZE = 50;
/** How far back a chain of quick messages is followed: a person typing non-stop for this many messages. */
export const MAX_PAGES = 4;
/** Each look-up; the delivery was answered or is held no longer than its hold allows. */
const READ_TIMEOUT_MS = 15_000;

/** Why a read failed, as a run's fields say it. */
export const reasonOf = (error: unknown) =>
	error instanceof Error ? error.message : String(error);

export interface ConversationRead {
	conversationId: string;
	timeline: TimelineMessage[];
	/** Where the next older page starts; undefined once the whole saved conversation was read. */
	cursor?: string;
	reads: number;
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
		pacer = new Pacer({ now: () => Date.now(), sleep });
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
	 * `minimum`: at least that many messages in the first page (history, takeover). `patienceMs`: how
	 * long the service may stay unreadable (429s waited out as Retry-After says, 503s and dropped
	 * connections backed off) before the read fails.
	 */
	constructor(
		private readonly context: IAllExecuteFunctions,
		private readonly minimum: number,
		private readonly patienceMs: number,
	) {}

	async read(conversationId: string): Promise<ConversationRead> {
		const read: ConversationRead = { conversationId, timeline: [], reads: 0 };
		await this.page(read, Math.min(100, Math.max(PAGE_SIZE, this.minimum + 10)));
		return read;
	}

	/** The next older page into `read`. */
	async older(read: ConversationRead): Promise<void> {
		await this.page(read, PAGE_SIZE);
	}

	private async page(read: ConversationRead, limit: number): Promise<void> {
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
		const { data } = await this.patiently(
			async () => await client.callTool<MessagesPage>(getMessagesTool.name, input),
		);
		read.reads++;
		read.timeline = mergeTimelines(timelineOf(data), read.timeline);
		read.cursor =
			typeof data?.next_cursor === 'string' && data.next_cursor !== ''
				? data.next_cursor
				: undefined;
	}

	/** One call, retried by the client's rules until it succeeds or patience runs out; then its last error. */
	private async patiently<T>(call: () => Promise<T>): Promise<T> {
		const started = Date.now();
		for (let attempt = 1; ; attempt++) {
			const outcome = await call().then(
				(value) => ({ ok: true as const, value }),
				(error: unknown) => ({ ok: false as const, error }),
			);
			if (outcome.ok) return outcome.value;
			const delayMs = this.retryDelay(outcome.error, attempt, started);
			if (delayMs === undefined) return await Promise.reject(outcome.error);
			await sleep(delayMs);
		}
	}

	/** How long to wait before trying again, or undefined when the error is final or patience would run out. */
	private retryDelay(error: unknown, attempt: number, started: number): number | undefined {
		if (!(error instanceof MessagingApiError)) return undefined;
		const decision = retryDecision(
			error,
			attempt,
			{
				...DEFAULT_RETRY_OPTIONS,
				maxAttempts: Number.POSITIVE_INFINITY,
				maxRetryAfterMs: this.patienceMs,
			},
			Math.random,
		);
		if (!decision.retry || Date.now() + decision.delayMs - started > this.patienceMs)
			return undefined;
		return Math.max(50, decision.delayMs);
	}
}
