import { ERROR_CODES } from './errorCodes';
import { mayHaveActed, serviceErrorClass } from './errorRules';
import {
	formatDuration,
	type MessagingApiError,
	type MessagingApiErrorDetails,
	ProtocolError,
	UncertainOutcomeError,
} from './errors';
import { redactSecrets, redactValue } from './redaction';
import type { TransportResponse } from './transport';

/*
 * What an answer means, decided here and nowhere else. The API answers success with a JSON object
 * (spec: "Response bodies of tool calls are JSON objects") and never redirects; anything else came
 * from something in between, and for a write it says nothing about whether the write happened.
 */

export type AttemptAnswer = { ok: true; data: unknown } | { ok: false; error: MessagingApiError };

function isJsonObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isPage = (body: string) => /^\s*</.test(body);

/**
 * A 2xx body that is an HTML page or JSON of another shape came from something else at that address
 * (a proxy's or a captive portal's page, another service): `invalid_response`. Nothing, `null` or
 * text that does not parse is an answer that broke off or came garbled: `incomplete_response`.
 */
function bodyFault(body: unknown): string {
	const incomplete =
		body === undefined || body === null || (typeof body === 'string' && !isPage(body));
	return incomplete ? 'incomplete_response' : 'invalid_response';
}

function describeBody(body: unknown): string {
	if (body === undefined) return 'an empty body';
	if (body === null) return 'null';
	if (typeof body === 'string')
		return isPage(body) ? 'an HTML page' : 'text that is not JSON (possibly cut off)';
	return Array.isArray(body) ? 'a JSON array' : `a JSON ${typeof body}`;
}

function protocolError(
	code: string,
	what: string,
	response: TransportResponse,
	context: ErrorContext,
): ProtocolError {
	const requestId = response.headers['x-request-id'];
	return new ProtocolError(
		redactSecrets(
			`The answer${context.tool ? ` to "${context.tool}"` : ''} was not one the API gives: ${what}. Something between n8n and the service (a proxy, a captive portal, a broken connection) answered instead.${requestId ? ` Request id ${requestId}.` : ''}`,
			context.secrets,
		),
		{ code, status: response.status, requestId, idempotencyKey: context.idempotencyKey },
	);
}

/**
 * One response: its data, or the typed error it stands for. `listing`: a GET, whose answer may be
 * a bare JSON array (GET /api/v1/tools from services that list tools that way).
 */
export function readResponse(
	response: TransportResponse,
	context: ErrorContext,
	listing = false,
): AttemptAnswer {
	const { status, body } = response;
	if (status >= 200 && status < 300) {
		if (isJsonObject(body) || (listing && Array.isArray(body))) return { ok: true, data: body };
		return {
			ok: false,
			error: protocolError(
				bodyFault(body),
				`HTTP ${status} with ${describeBody(body)}`,
				response,
				context,
			),
		};
	}
	if (status >= 300 && status < 400) {
		// Never followed: the key and the body would go wherever the Location points.
		return {
			ok: false,
			error: protocolError(
				'unexpected_redirect',
				`a redirect (HTTP ${status}), which is not followed`,
				response,
				context,
			),
		};
	}
	return { ok: false, error: errorFromResponse(response, context) };
}

/**
 * The error a failed write ends with. Once an attempt may have acted, a later definitive answer
 * (four 503s after a dropped connection) does not make the call certain: the caller must check
 * with get_operation / get_send_status, and must never resend with a new key.
 */
export function finalWriteError(
	last: MessagingApiError,
	firstUncertain: MessagingApiError | undefined,
): MessagingApiError {
	if (!firstUncertain) {
		last.actionTaken = 'no';
		return last;
	}
	if (mayHaveActed(last)) {
		last.actionTaken = 'unknown';
		return last;
	}
	const error = new UncertainOutcomeError(
		`It is not known whether the call took effect: an earlier attempt may have (${firstUncertain.code}), and the last attempt answered: ${last.message} Check it with get_operation or get_send_status by its idempotency key; do not resend with a new key.`,
		{
			code: 'outcome_uncertain',
			status: last.status,
			requestId: last.requestId ?? firstUncertain.requestId,
			operationId: firstUncertain.operationId ?? last.operationId,
			idempotencyKey: last.idempotencyKey ?? firstUncertain.idempotencyKey,
			cause: last,
		},
	);
	error.actionTaken = 'unknown';
	return error;
}

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
	return isJsonObject(value) ? value : undefined;
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
	const ErrorType = serviceErrorClass(code);
	const message = describeAnswer(code, details, serverMessage, context.tool);
	return new ErrorType(redactSecrets(message, secrets), details);
}

function sentence(serverMessage: string | undefined): string {
	if (!serverMessage) return '';
	return /[.!?]$/.test(serverMessage) ? ` ${serverMessage}` : ` ${serverMessage}.`;
}

/** A 404 without the API's error body: something other than the API answered at the Base URL. */
export const NOT_THE_API =
	"The address in the credential's Base URL does not answer as this API (HTTP 404). Check the Base URL: it is the service's address without /api/v1.";

/** Messages for people building workflows: what happened, then what to do. */
function describeAnswer(
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
	const entry = ERROR_CODES[code];
	if (entry?.source === 'service' && entry.message)
		return entry.message({ ...details, tool, said, quote, wait });
	if (code === 'http_404') return NOT_THE_API;
	return `The API answered HTTP ${details.status ?? '?'} (${code}).${said}${quote}`;
}
