/*
 * Type guards for values read from outside (API answers, webhook bodies, JSON input), shared by
 * both nodes so that every module means the same thing by "an object".
 */

/** A plain JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
