import type { PaceBucket } from './pacer';
import type { TransportRequest } from './transport';

/*
 * The request loop's input and output, apart from the client itself: the webhook endpoint calls
 * build on them without depending on the client module that holds them.
 */

/** What every client method resolves with. */
export interface ApiResult<T> {
	data: T;
	requestId?: string;
	status: number;
	/** Requests made, retries included. */
	attempts: number;
	/** The service answered with the stored result of an earlier call with the same key. */
	replayed: boolean;
	idempotencyKey?: string;
	/** The answer's `Date` header (the service's clock, whole seconds), when it sent one. */
	date?: string;
}

/** One request as the loop sends it, every attempt identical. */
export interface RequestSpec {
	method: TransportRequest['method'];
	path: string;
	body?: unknown;
	headers?: Record<string, string>;
	idempotencyKey?: string;
	pace: readonly PaceBucket[];
	timeoutMs?: number;
	/** For error messages. */
	tool?: string;
	scope?: string;
}
