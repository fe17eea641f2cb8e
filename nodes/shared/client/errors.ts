/** Everything the API's error object may carry, plus what the client knows about the call. */
export interface MessagingApiErrorDetails {
	code: string;
	status?: number;
	requestId?: string;
	/** Seconds, from the `Retry-After` header or the body's `retry_after`. */
	retryAfter?: number;
	upgradeUrl?: string;
	field?: string;
	operationId?: string;
	/** Scope the key lacks, when the body or the tool's catalogue entry names it. */
	scope?: string;
	/** The parsed response body (secrets removed). */
	body?: unknown;
	/** The service's own words (`error.message`), for callers that explain the error in theirs. */
	serviceMessage?: string;
	/** The key the call carried, so a caller can look up the outcome with get_send_status. */
	idempotencyKey?: string;
	/**
	 * Node's code for a failed connection (ECONNREFUSED…). Kept out of the message: n8n replaces a
	 * node error's message that contains such a code with a generic sentence of its own.
	 */
	networkCode?: string;
	cause?: unknown;
}

/**
 * `no`: the service refused the write or it never reached the service. `unknown`: some attempt
 * may have taken effect, and nothing has said otherwise yet (get_operation / get_send_status can).
 */
export type ActionTaken = 'no' | 'unknown';

/**
 * Base class of every error the client throws. Codes the spec does not document land here
 * directly, so a newer server never breaks older nodes.
 */
export class MessagingApiError extends Error {
	readonly code: string;
	readonly status?: number;
	readonly requestId?: string;
	readonly retryAfter?: number;
	readonly upgradeUrl?: string;
	readonly field?: string;
	/** Filled in later when get_operation names the operation. */
	operationId?: string;
	readonly scope?: string;
	readonly body?: unknown;
	readonly serviceMessage?: string;
	readonly networkCode?: string;
	idempotencyKey?: string;
	/** How many requests were made before giving up; set by the client. */
	attempts?: number;
	/** For a failed write: whether it took effect, as far as anyone can tell. Set by the client. */
	actionTaken?: ActionTaken;

	constructor(message: string, details: MessagingApiErrorDetails) {
		super(message, details.cause === undefined ? undefined : { cause: details.cause });
		this.name = new.target.name;
		this.code = details.code;
		this.status = details.status;
		this.requestId = details.requestId;
		this.retryAfter = details.retryAfter;
		this.upgradeUrl = details.upgradeUrl;
		this.field = details.field;
		this.operationId = details.operationId;
		this.scope = details.scope;
		this.body = details.body;
		this.serviceMessage = details.serviceMessage;
		this.idempotencyKey = details.idempotencyKey;
		this.networkCode = details.networkCode;
	}
}

export class InvalidApiKeyError extends MessagingApiError {}
export class InsufficientPermissionError extends MessagingApiError {}
export class PlanRequiredError extends MessagingApiError {}
export class UnknownToolError extends MessagingApiError {}
export class InvalidInputError extends MessagingApiError {}
export class RateLimitedError extends MessagingApiError {}
export class DailyLimitReachedError extends MessagingApiError {}
export class WhatsappNotConnectedError extends MessagingApiError {}
export class ToolError extends MessagingApiError {}
export class OutcomeUnknownError extends MessagingApiError {}
/** No response arrived: the connection failed or was dropped. The call may still have taken effect. */
export class ConnectionError extends MessagingApiError {}
/** No response within the time-out. Never proof that nothing was sent. */
export class TimeoutError extends MessagingApiError {}
/** Rejected by the client before anything was sent. */
export class InputValidationError extends MessagingApiError {
	actionTaken: ActionTaken = 'no';
}
/**
 * An answer that is not one the API gives: a 2xx whose body is not a JSON object (an HTML page,
 * truncated JSON, nothing), or a redirect. Something between n8n and the service answered, so a
 * write behind it may or may not have happened.
 */
export class ProtocolError extends MessagingApiError {}
/**
 * A write answered definitively after an earlier attempt of it may already have taken effect:
 * the later answer says nothing about the earlier attempt.
 */
export class UncertainOutcomeError extends MessagingApiError {}

export type ErrorClass = new (
	message: string,
	details: MessagingApiErrorDetails,
) => MessagingApiError;

/**
 * How a connection failed: before it was made, so nothing was sent (refused, host not found, its
 * name not looked up just now, TLS handshake), or after the request went out.
 */
export type ConnectionFailure =
	| 'connection_refused'
	| 'host_not_found'
	| 'lookup_failed'
	| 'tls_failed'
	| 'connection_error'
	| 'response_interrupted';

const MAY_HAVE_ACTED =
	'The call may still have taken effect: retry only with the same idempotency key, or check it with Other › Get Operation Outcome (or Message › Get Status).';

/** What happened at `at`, in plain words, and the one thing to check. */
function connectionSentence(code: ConnectionFailure, detail: string, at: string): string {
	switch (code) {
		case 'connection_refused':
			return `Nothing at ${at} accepted the connection (${detail}). Check the host and port of the credential's Base URL, and that the service runs there. Nothing reached the service.`;
		case 'host_not_found':
			return `The host name of ${at} was not found (${detail}). Check the credential's Base URL for a typo, and that n8n can look up that name. Nothing reached the service.`;
		case 'lookup_failed':
			return `The host name of ${at} could not be looked up just now (${detail}): n8n's DNS did not answer. This is usually temporary. Check n8n's DNS and the credential's Base URL if it keeps happening. Nothing reached the service.`;
		case 'tls_failed':
			return `The secure connection to ${at} failed (${detail}). Check the credential's Base URL: https:// only where the service speaks TLS (http:// otherwise), and a certificate valid for that host. Nothing reached the service.`;
		case 'response_interrupted':
			return `The answer from ${at} broke off after its headers (${detail}). ${MAY_HAVE_ACTED}`;
		default:
			return `The connection to ${at} failed (${detail}). Check the credential's Base URL and the network. ${MAY_HAVE_ACTED}`;
	}
}

/**
 * No complete response, worded for the cause. Only a connection never made (refused, host not
 * found, TLS handshake) proves that the request never reached the service.
 */
export function connectionError(
	detail: string,
	target?: string,
	code: ConnectionFailure = 'connection_error',
	networkCode?: string,
): ConnectionError {
	return new ConnectionError(
		connectionSentence(code, detail, target ?? "the credential's Base URL"),
		{ code, networkCode },
	);
}

/** A time-out is never proof that nothing was sent. */
export function timeoutError(timeoutMs: number, target?: string): TimeoutError {
	return new TimeoutError(
		`No answer from ${target ?? "the credential's Base URL"} within ${formatDuration(timeoutMs / 1000)}. Check that the Base URL points at the service and that it is reachable from n8n. ${MAY_HAVE_ACTED}`,
		{ code: 'timeout' },
	);
}

/** "2 h 5 min", "45 s", "500 ms": a wait, for messages. */
export function formatDuration(seconds: number): string {
	if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
	const whole = Math.ceil(seconds);
	if (whole < 60) return `${whole} s`;
	const hours = Math.floor(whole / 3600);
	const minutes = Math.ceil((whole % 3600) / 60);
	if (hours === 0) return `${minutes} min`;
	return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}
