import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks verification (spec: Events → Signing) over the raw request bytes.
 *
 * Written on `node:crypto` instead of the `standardwebhooks` package because that package
 * decodes the body as UTF-8 before signing (non-UTF-8 bytes then never verify), accepts
 * timestamps such as `+1614265330` or `1614265330.75` through `parseInt`, and runs a
 * JavaScript SHA-256. Nothing here throws for hostile input: every outcome is a value.
 */

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type VerificationFailure =
	/** The configured secret is not `whsec_` + base64 (or bare base64) of at least one byte. */
	| 'invalid_secret'
	/** No raw body bytes were available to verify. */
	| 'invalid_body'
	| 'missing_header'
	/** A signing header occurred twice or was given as an array. */
	| 'duplicate_header'
	/** `webhook-id` holds characters outside visible ASCII. */
	| 'invalid_id'
	/** `webhook-timestamp` is not a plain run of digits. */
	| 'invalid_timestamp'
	| 'timestamp_too_old'
	| 'timestamp_too_new'
	/** `webhook-signature` has no well-formed `v1,<base64 of 32 bytes>` entry. */
	| 'no_v1_signature'
	| 'signature_mismatch';

export type VerificationResult =
	| { ok: true; webhookId: string; timestamp: number }
	| { ok: false; reason: VerificationFailure; header?: SigningHeader };

export type SigningHeader = 'webhook-id' | 'webhook-timestamp' | 'webhook-signature';

/**
 * Header record (names in any case; a value given as an array counts as duplicated) or Node's
 * `rawHeaders` list. Prefer `rawHeaders`: Node joins repeated headers into one string with ", ",
 * which hides duplication, while the raw list keeps every occurrence.
 */
export type DeliveryHeaders =
	| readonly string[]
	| Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerificationInput {
	body: Uint8Array;
	headers: DeliveryHeaders;
	secret: string;
	/** Receiver clock in epoch milliseconds; injected so tests and replays are deterministic. */
	now: number;
	toleranceSeconds?: number;
}

const SECRET_PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const TIMESTAMP = /^[0-9]{1,12}$/;
const VISIBLE_ASCII = /^[\x21-\x7e]{1,256}$/;
const DIGEST_BYTES = 32;
const SIGNING_HEADERS: readonly SigningHeader[] = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];

/**
 * Key bytes of a signing secret. The `whsec_` prefix is optional: a secret pasted without it is
 * the same base64 key material (as the standardwebhooks and svix libraries read it), so both
 * forms give the same key. Anything that is not strict standard base64 is refused.
 */
export function decodeSecret(secret: string): Buffer | undefined {
	// Parameters arrive untyped at runtime; a missing secret must be a result, not a TypeError.
	if (typeof secret !== 'string') return undefined;
	const material = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
	if (!BASE64.test(material) || material.length % 4 === 1) return undefined;
	const key = Buffer.from(material, 'base64');
	return key.length > 0 ? key : undefined;
}

export function verifySignature(input: VerificationInput): VerificationResult {
	const key = decodeSecret(input.secret);
	if (key === undefined) return { ok: false, reason: 'invalid_secret' };
	if (!(input.body instanceof Uint8Array)) return { ok: false, reason: 'invalid_body' };

	const headers = readSigningHeaders(input.headers);
	if ('reason' in headers) return { ok: false, ...headers };
	const { id, timestamp, signature } = headers;

	if (!VISIBLE_ASCII.test(id)) return { ok: false, reason: 'invalid_id', header: 'webhook-id' };
	if (!TIMESTAMP.test(timestamp)) {
		return { ok: false, reason: 'invalid_timestamp', header: 'webhook-timestamp' };
	}
	const seconds = Number(timestamp);
	const nowSeconds = Math.floor(input.now / 1000);
	const tolerance = input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
	if (nowSeconds - seconds > tolerance) return { ok: false, reason: 'timestamp_too_old' };
	if (seconds - nowSeconds > tolerance) return { ok: false, reason: 'timestamp_too_new' };

	const candidates = v1Digests(signature);
	if (candidates.length === 0) {
		return { ok: false, reason: 'no_v1_signature', header: 'webhook-signature' };
	}
	// One HMAC however many entries the header carries: the cost an attacker can cause stays flat.
	const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(input.body).digest();
	let matched = false;
	for (const candidate of candidates) {
		// Compare every entry (no early exit) so timing does not reveal which entry matched.
		if (timingSafeEqual(candidate, expected)) matched = true;
	}
	return matched
		? { ok: true, webhookId: id, timestamp: seconds }
		: { ok: false, reason: 'signature_mismatch' };
}

type HeaderProblem = { reason: 'missing_header' | 'duplicate_header'; header: SigningHeader };

function readSigningHeaders(
	source: DeliveryHeaders,
): { id: string; timestamp: string; signature: string } | HeaderProblem {
	const values = collect(source);
	const found: string[] = [];
	for (const name of SIGNING_HEADERS) {
		const value = values.get(name);
		if (Array.isArray(value)) return { reason: 'duplicate_header', header: name };
		if (typeof value !== 'string' || value === '') return { reason: 'missing_header', header: name };
		// Node's own join of a repeated header: no single signature header contains ", ".
		if (value.includes(', ')) return { reason: 'duplicate_header', header: name };
		found.push(value);
	}
	const [id, timestamp, signature] = found;
	return { id, timestamp, signature };
}

/** Signing header values by lower-case name; a repeated name becomes a list. */
function collect(source: DeliveryHeaders): Map<string, string | readonly string[]> {
	const values = new Map<string, string | readonly string[]>();
	const add = (rawName: string, value: string | readonly string[] | undefined) => {
		const name = rawName.toLowerCase();
		if (value === undefined || !(SIGNING_HEADERS as readonly string[]).includes(name)) return;
		const previous = values.get(name);
		values.set(name, previous === undefined ? value : [previous, value].flat());
	};
	if (Array.isArray(source)) {
		for (let index = 0; index + 1 < source.length; index += 2) add(source[index], source[index + 1]);
	} else {
		for (const [name, value] of Object.entries(source)) add(name, value);
	}
	return values;
}

/**
 * Decoded digests of the well-formed `v1` entries. Entries of other versions, and `v1` entries
 * whose base64 is not canonical or not 32 bytes (truncated, padded oddly), can never match
 * and are skipped.
 */
function v1Digests(header: string): Buffer[] {
	const digests: Buffer[] = [];
	for (const entry of header.split(' ')) {
		const comma = entry.indexOf(',');
		if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
		const encoded = entry.slice(comma + 1);
		if (!BASE64.test(encoded)) continue;
		const digest = Buffer.from(encoded, 'base64');
		if (digest.length === DIGEST_BYTES && digest.toString('base64') === encoded) digests.push(digest);
	}
	return digests;
}
