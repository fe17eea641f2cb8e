import { SandboxApiError } from './sandboxError';

/** Spec: 8 to 128 characters from letters, digits, `.`, `_`, `:`, `-`. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

export interface StoredResult {
	fingerprint: string;
	tool: string;
	status: number;
	body: unknown;
}

function invalidKey(message: string): SandboxApiError {
	return new SandboxApiError(400, 'invalid_input', message, { field: 'idempotencyKey' });
}

/**
 * The key of a call: the body field overrides the header (spec: General rules).
 * Write tools must have one; a present key must match the format even on read tools.
 */
export function resolveIdempotencyKey(
	body: Record<string, unknown>,
	header: string | undefined,
	required: boolean,
): string | null {
	const fromBody = body.idempotencyKey;
	if (fromBody !== undefined && typeof fromBody !== 'string')
		throw invalidKey('idempotencyKey must be a string.');
	const key = fromBody ?? header ?? null;
	if (key === null) {
		if (required) {
			throw invalidKey(
				'Write tools need an idempotency key: the Idempotency-Key header or the body field idempotencyKey.',
			);
		}
		return null;
	}
	if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
		throw invalidKey(
			'The idempotency key must be 8 to 128 characters of letters, digits, ".", "_", ":" or "-".',
		);
	}
	return key;
}

/** Stable JSON: object keys sorted, so `{a,b}` and `{b,a}` are the same input. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>)
			.filter(([, v]) => v !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
	}
	return JSON.stringify(value);
}

export function fingerprint(tool: string, input: Record<string, unknown>): string {
	const rest = { ...input };
	delete rest.idempotencyKey;
	return `${tool}\n${canonical(rest)}`;
}

/** First results per (account, key). Only committed results are stored, so a refused call can be fixed and retried. */
export class IdempotencyStore {
	private readonly results = new Map<string, StoredResult>();

	/** The stored result to replay, undefined for a fresh key; throws when the key was used for other input. */
	lookup(accountId: string, key: string, print: string): StoredResult | undefined {
		const stored = this.results.get(`${accountId}\n${key}`);
		if (!stored) return undefined;
		if (stored.fingerprint !== print) {
			throw invalidKey(
				`The idempotency key was already used for a different ${stored.tool} call; a different action needs a different key.`,
			);
		}
		return stored;
	}

	save(accountId: string, key: string, result: StoredResult): void {
		this.results.set(`${accountId}\n${key}`, result);
	}
}
