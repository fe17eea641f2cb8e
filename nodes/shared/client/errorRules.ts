import { ERROR_CODES, type ErrorCode, type RetryRule, type ToolCallFate } from './errorCodes';
import { type ErrorClass, MessagingApiError } from './errors';

/*
 * What the error table (./errorCodes) says about one failure: how the client retries it, whether a
 * write that failed so may have acted, and what a model calling the node as a tool is told.
 */

/** Gateways in front of the API answer these without the API's error body. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/** The table's entry for `code`, if it holds one. */
function entryOf(code: string | undefined): ErrorCode | undefined {
	return code !== undefined && Object.prototype.hasOwnProperty.call(ERROR_CODES, code)
		? ERROR_CODES[code]
		: undefined;
}

/**
 * The entry an error stands for: its code's, when the error is of that code's class. A code the
 * API does not document (a gateway's HTML 502, a newer server's) has none: such an error is
 * retried only for a gateway status and may have acted only for a 5xx.
 */
export function errorCodeOf(error: MessagingApiError): ErrorCode | undefined {
	const entry = entryOf(error.code);
	return entry && error instanceof entry.type ? entry : undefined;
}

/** How the client retries `error`. */
export function retryRuleOf(error: MessagingApiError): RetryRule {
	const entry = errorCodeOf(error);
	if (entry) return entry.retry;
	return isUndocumented(error) && GATEWAY_STATUSES.has(error.status ?? 0) ? 'backoff' : 'never';
}

/** Errors a later attempt may not meet: a busy or unreachable service, not a refused key or scope. */
export function isPassing(error: unknown): boolean {
	return error instanceof MessagingApiError && retryRuleOf(error) !== 'never';
}

/** Whether a write that failed with `error` may still have taken effect. */
export function mayHaveActed(error: MessagingApiError): boolean {
	const entry = errorCodeOf(error);
	if (entry) return entry.mayHaveActed;
	return isUndocumented(error) && (error.status ?? 0) >= 500;
}

function isUndocumented(error: MessagingApiError): boolean {
	return Object.getPrototypeOf(error) === MessagingApiError.prototype;
}

/** The class for a code the service answered with; codes it does not document keep the base class. */
export function serviceErrorClass(code: string): ErrorClass {
	const entry = entryOf(code);
	return entry?.source === 'service' ? entry.type : MessagingApiError;
}

/**
 * What a model is told of a failure with `code` and HTTP `status` (from the error itself or from
 * the node error made of it). The service's own unavailability (a 503 that is retried) and a
 * gateway's 502/503/504 without the API's error body are temporary; a code the table does not hold
 * otherwise goes back to the model, which may still make sense of it.
 */
export function toolCallFate(code: string | undefined, status: number | undefined): ToolCallFate {
	const entry = entryOf(code);
	if (entry?.retry === 'backoffOn503' && status === 503) return 'temporary';
	if (entry) return entry.forModel;
	return GATEWAY_STATUSES.has(status ?? 0) ? 'temporary' : 'fixable';
}
