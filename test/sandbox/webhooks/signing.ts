import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Endpoint } from './types';

const SECRET_BYTES = 24;

/** `whsec_` plus base64 key material, the form Standard Webhooks libraries decode. */
export function newSecret(): string {
	return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** Secrets that sign a delivery made at `now`: the current one, and the previous one while rotating. */
export function activeSecrets(endpoint: Endpoint, now: number): string[] {
	const rotating =
		endpoint.previousSecret !== null && (endpoint.previousSecretExpiresAt ?? 0) > now;
	return rotating ? [endpoint.secret, endpoint.previousSecret as string] : [endpoint.secret];
}

/**
 * The three Standard Webhooks headers. The timestamp comes from the sandbox clock so a receiver
 * on the same clock sees consistent times, and each attempt is signed afresh.
 */
export function signatureHeaders(
	secrets: string[],
	messageId: string,
	now: number,
	body: string,
): Record<string, string> {
	const timestamp = new Date(now);
	return {
		'webhook-id': messageId,
		'webhook-timestamp': String(Math.floor(now / 1000)),
		'webhook-signature': secrets
			.map((secret) => new Webhook(secret).sign(messageId, timestamp, body))
			.join(' '),
	};
}
