import { redactSecrets, redactValue } from './redaction';
import type { TransportResponse } from './transport';

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

type ErrorClass = new (message: string, details: MessagingApiErrorDetails) => MessagingApiError;

const CLASS_BY_CODE: Record<string, ErrorClass> = {
	invalid_api_key: InvalidApiKeyError,
	insufficient_permission: InsufficientPermissionError,
	plan_required: PlanRequiredError,
	unknown_tool: UnknownToolError,
	invalid_input: InvalidInputError,
	rate_limited: RateLimitedError,
	daily_limit_reached: DailyLimitReachedError,
	whatsapp_not_connected: WhatsappNotConnectedError,
	tool_error: ToolError,
	outcome_unknown: OutcomeUnknownError,
};

export interface ErrorContext {
	/** Tool called, for messages. */
	tool?: string;
	/** Scope the tool needs (catalogue), used when the body does not name one. */
	scope?: string;
	idempotencyKey?: string;
	/** Values that must never appear in error text (the API key). */
	secrets?: readonly string[];
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: undefined;
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** `Retry-After` in whole seconds; HTTP dates are not used by this API. */
export function parseRetryAfter(
	header: string | undefined,
	bodyValue: unknown,
): number | undefined {
	const fromHeader = header === undefined ? Number.NaN : Number(header.trim());
	if (Number.isFinite(fromHeader) && fromHeader >= 0) return fromHeader;
	const fromBody = typeof bodyValue === 'string' ? Number(bodyValue) : bodyValue;
	return typeof fromBody === 'number' && Number.isFinite(fromBody) && fromBody >= 0
		? fromBody
		: undefined;
}

const SCOPE_IN_TEXT = /\bmessenger\.[a-z_]+(?::[a-z_]+)?/i;

/** Builds the typed error for a non-2xx response. The only place status and code become a class. */
export function errorFromResponse(
	response: TransportResponse,
	context: ErrorContext = {},
): MessagingApiError {
	const secrets = context.secrets ?? [];
	const body = redactValue(response.body, secrets);
	const error = asRecord(asRecord(body)?.error);
	const code = text(error?.code) ?? (error ? 'unknown_error' : `http_${response.status}`);
	const serverMessage =
		text(error?.message) ?? (typeof body === 'string' ? body.trim().slice(0, 300) : undefined);
	const details: MessagingApiErrorDetails = {
		code,
		status: response.status,
		requestId: response.headers['x-request-id'],
		retryAfter: parseRetryAfter(response.headers['retry-after'], error?.retry_after),
		upgradeUrl: text(error?.upgrade_url),
		field: text(error?.field),
		operationId: text(error?.operation_id),
		body,
		serviceMessage: serverMessage === undefined ? undefined : redactSecrets(serverMessage, secrets),
		idempotencyKey: context.idempotencyKey,
	};
	details.scope =
		text(error?.scope) ??
		text(error?.required_scope) ??
		serverMessage?.match(SCOPE_IN_TEXT)?.[0] ??
		(code === 'insufficient_permission' ? context.scope : undefined);
	const ErrorType = CLASS_BY_CODE[code] ?? MessagingApiError;
	const message = describeError(code, details, serverMessage, context.tool);
	return new ErrorType(redactSecrets(message, secrets), details);
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

function sentence(serverMessage: string | undefined): string {
	if (!serverMessage) return '';
	return /[.!?]$/.test(serverMessage) ? ` ${serverMessage}` : ` ${serverMessage}.`;
}

/** Messages for people building workflows: what happened, then what to do. */
function describeError(
	code: string,
	details: MessagingApiErrorDetails,
	serverMessage: string | undefined,
	tool: string | undefined,
): string {
	const said = sentence(serverMessage);
	const quote = details.requestId
		? ` Quote request id ${details.requestId} if you contact support.`
		: '';
	const wait = details.retryAfter === undefined ? '' : ` in ${formatDuration(details.retryAfter)}`;
	switch (code) {
		case 'invalid_api_key':
			return `The API key was rejected (invalid, revoked, or account access unavailable).${said} Paste an active key from the dashboard into the Messaging Automation credential.`;
		case 'insufficient_permission': {
			const scope = details.scope ? ` It needs the scope "${details.scope}".` : '';
			return `The API key is not allowed to do this, or the account has not given inbox storage consent.${scope}${said} Add the scope to the key (or give consent) in the dashboard, then try again.`;
		}
		case 'plan_required':
			return `API keys and webhooks need the highest paid plan.${said} Upgrade the account${details.upgradeUrl ? ` at ${details.upgradeUrl}` : ' on the pricing page'}, then try again.`;
		case 'unknown_tool':
			return `The tool${tool ? ` "${tool}"` : ''} is not available to this API key.${said} Pick a tool from the list the key can use, or give the key the scope the tool needs.`;
		case 'invalid_input':
			return `The service rejected the input${details.field ? ` (field "${details.field}")` : ''}.${said} Fix the value and run again; nothing was done.`;
		case 'rate_limited':
			return `Too many calls per minute for this API key or QR number.${said} Retry${wait || ' later'} with the same idempotency key, or lower the node's Rate Limit Budget if other workflows share the key.`;
		case 'daily_limit_reached':
			return `The personal (QR) number has used its daily API sends.${said} The counter resets at 00:00 UTC${wait}; send again after that, or use the Business channel.`;
		case 'whatsapp_not_connected':
			return `The channel this call needs is not connected.${said} Check the account's numbers (Account > Get, GET /api/v1/me) and reconnect the number in the dashboard.`;
		case 'tool_error':
			return details.status === 503
				? `The service is temporarily unavailable.${said} Try again in a moment.${quote}`
				: `The tool${tool ? ` "${tool}"` : ''} failed.${said} Check the input and the account state.${quote}`;
		case 'outcome_unknown':
			return `The service cannot tell yet whether the call took effect${details.operationId ? ` (operation ${details.operationId})` : ''}.${said} Check it with Other › Get Operation Outcome (or Message › Get Status); do not resend with a new idempotency key.`;
		default:
			return `The API answered HTTP ${details.status ?? '?'} (${code}).${said}${quote}`;
	}
}
