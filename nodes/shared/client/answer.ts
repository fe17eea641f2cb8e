import {
	ConnectionError,
	errorFromResponse,
	type ErrorContext,
	MessagingApiError,
	OutcomeUnknownError,
	ProtocolError,
	TimeoutError,
	ToolError,
	UncertainOutcomeError,
} from './errors';
import { redactSecrets } from './redaction';
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

function describeBody(body: unknown): string {
	if (body === undefined) return 'an empty body';
	if (body === null) return 'null';
	if (typeof body === 'string')
		return /^\s*</.test(body) ? 'an HTML page' : 'text that is not JSON (possibly cut off)';
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
				'invalid_response',
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
 * Whether a write that failed this way may still have taken effect. The service's own error
 * codes say it did not (outcome_unknown excepted); a connection refused before anything was
 * sent did not; everything else, including a gateway's 5xx, might have.
 */
export function mayHaveActed(error: MessagingApiError): boolean {
	if (error instanceof ConnectionError) return error.code !== 'connection_refused';
	if (error instanceof TimeoutError || error instanceof ProtocolError) return true;
	if (error instanceof OutcomeUnknownError || error instanceof UncertainOutcomeError) return true;
	if (error instanceof ToolError) return false;
	// A code the API does not document: only a 5xx (a gateway's HTML 502, say) leaves the write open.
	return Object.getPrototypeOf(error) === MessagingApiError.prototype && (error.status ?? 0) >= 500;
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
