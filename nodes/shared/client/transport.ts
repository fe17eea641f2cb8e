/**
 * The only thing the client needs from the outside world. Inside n8n it is
 * `httpRequestWithAuthentication` (nodes/shared/transport); in tests, the sandbox
 * and benchmarks it is undici (test/support). Authentication is the transport's job.
 */
export interface TransportRequest {
	method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
	/** Path below the base URL, starting with `/api/v1/`. */
	path: string;
	headers?: Record<string, string>;
	/** Serialised as JSON when present. */
	body?: unknown;
	timeoutMs: number;
}

export interface TransportResponse {
	status: number;
	/** Lower-case header names. */
	headers: Record<string, string | undefined>;
	/** Parsed JSON, or the raw text when the body was not JSON, or undefined when empty. */
	body: unknown;
}

/**
 * Resolves for every HTTP status (non-2xx included). Rejects only when no response
 * arrived, with `ConnectionError` or `TimeoutError` from ./errors.
 */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;
