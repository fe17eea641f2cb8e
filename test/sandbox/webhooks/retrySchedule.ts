import { LIMITS } from './types';

/**
 * Delay before the next attempt after `failedAttempts` failures, with the spec's ±20% jitter,
 * or null when the delivery has used its nine attempts.
 */
export function retryDelayMs(failedAttempts: number, random: () => number): number | null {
	if (failedAttempts >= LIMITS.maxAttempts) return null;
	const base = LIMITS.retryDelaysMs[failedAttempts - 1];
	return Math.round(base * (1 + (random() * 2 - 1) * LIMITS.jitter));
}
