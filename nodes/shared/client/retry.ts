import { retryRuleOf } from './errorRules';
import type { MessagingApiError } from './errors';

export interface RetryOptions {
	/** Requests per call, the first included. 1 disables retries. */
	maxAttempts: number;
	/** Longest `Retry-After` the client waits out; a longer one is reported instead of waited. */
	maxRetryAfterMs: number;
	/** First backoff ceiling for 503s, dropped connections and time-outs; doubles per attempt. */
	baseDelayMs: number;
	/** Highest backoff ceiling. */
	maxDelayMs: number;
}

export const DEFAULT_RETRY_OPTIONS: RetryOptions = {
	maxAttempts: 5,
	maxRetryAfterMs: 60_000,
	baseDelayMs: 500,
	maxDelayMs: 8_000,
};

export type RetryDecision = { retry: false } | { retry: true; delayMs: number };

/** Exponential backoff with full jitter: uniform in [0, min(max, base * 2^(n-1))). */
export function backoffDelay(attempt: number, options: RetryOptions, random: () => number): number {
	const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
	return Math.floor(random() * ceiling);
}

/**
 * The retry policy; which codes retry how is in ./errorCodes. Every retry reuses the call's idempotency key, so a request
 * that did reach the service before failing is replayed, not repeated.
 * - rate_limited: wait Retry-After (when it fits under the cap), else backoff when none was given.
 * - tool_error 503, gateway 502/503/504, dropped connections, time-outs, answers the API does not
 *   give (HTML, cut-off JSON, redirects): backoff.
 * - Everything else (validation, auth, plan, daily_limit_reached, outcome_unknown): never.
 *   outcome_unknown in particular must be resolved with get_operation / get_send_status.
 */
export function retryDecision(
	error: MessagingApiError,
	attempt: number,
	options: RetryOptions,
	random: () => number,
): RetryDecision {
	if (attempt >= options.maxAttempts) return { retry: false };
	const rule = retryRuleOf(error);
	if (rule === 'retryAfter' && error.retryAfter !== undefined) {
		const delayMs = error.retryAfter * 1000;
		return delayMs <= options.maxRetryAfterMs ? { retry: true, delayMs } : { retry: false };
	}
	const backoff =
		rule === 'backoff' ||
		rule === 'retryAfter' ||
		(rule === 'backoffOn503' && error.status === 503);
	return backoff
		? { retry: true, delayMs: backoffDelay(attempt, options, random) }
		: { retry: false };
}
