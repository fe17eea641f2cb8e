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

/** How a connection failed: before it was made (nothing sent), or after the request went out. */
export type ConnectionFailure = 'connection_refused' | 'connection_error' | 'response_interrupted';

/** No complete response. Only `connection_refused` proves that the request never reached the service. */
export function connectionError(
	detail: string,
	target?: string,
	code: ConnectionFailure = 'connection_error',
): ConnectionError {
	const effect =
		code === 'connection_refused'
			? 'Nothing reached the service.'
			: 'The call may still have taken effect: retry only with the same idempotency key, or check it with Other › Get Operation Outcome (or Message › Get Status).';
	return new ConnectionError(
		`Could not complete the request${target ? ` to ${target}` : ''}: ${detail}. Check the credential's Base URL and the network. ${effect}`,
		{ code },
	);
}

/** A time-out is never proof that nothing was sent. */
export function timeoutError(timeoutMs: number, target?: string): TimeoutError {
	return new TimeoutError(
		`No answer${target ? ` from ${target}` : ''} within ${formatDuration(timeoutMs / 1000)}. The call may still have taken effect: retry only with the same idempotency key, or check it with Other › Get Operation Outcome (or Message › Get Status).`,
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
