import { createHash, randomUUID } from 'node:crypto';

import { IDEMPOTENCY_KEY_PATTERN } from '../catalogue/formats';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 128;

export function isValidIdempotencyKey(key: string): boolean {
	return IDEMPOTENCY_KEY_PATTERN.test(key);
}

/** A fresh key for one action (not for a retry: retries reuse the key they started with). */
export function generateIdempotencyKey(): string {
	return `n8n-${randomUUID()}`;
}

/** Short, stable, alphabet-safe digest of any text. */
export function shortHash(value: string, length = 12): string {
	return createHash('sha256').update(value).digest('base64url').slice(0, length);
}

const UNSAFE_CHARACTER = /[^A-Za-z0-9._:-]/;

/**
 * The key for replying to a trigger event: `<eventId>:<node>[:<batch>]`. The same event, node and
 * batch always give the same key, so a rerun never acts twice; two nodes never share one.
 * Over-long or unsafe event ids are replaced by a digest so the key stays within 8-128 characters.
 */
export function deriveIdempotencyKey(
	eventId: string,
	nodeDiscriminator: string,
	batchIndex?: number,
): string {
	const suffix = `:${shortHash(nodeDiscriminator, 10)}${batchIndex === undefined ? '' : `:${batchIndex}`}`;
	const room = IDEMPOTENCY_KEY_MAX_LENGTH - suffix.length;
	const base =
		eventId.length > 0 && eventId.length <= room && !UNSAFE_CHARACTER.test(eventId)
			? eventId
			: `h-${shortHash(eventId, 43)}`;
	return `${base}${suffix}`;
}
