import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

import { decodeDigest, DIGEST_BASE64_LENGTH, DIGEST_BYTES } from './digestBase64';

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
const SIGNING_HEADERS: readonly SigningHeader[] = [
	'webhook-id',
	'webhook-timestamp',
	'webhook-signature',
];
/** Lets the header scan pass over unrelated names without lower-casing each one. */
const SIGNING_NAME_LENGTHS = new Set(SIGNING_HEADERS.map((name) => name.length));
const V1_PREFIX = 'v1,';
const V1_ENTRY_LENGTH = V1_PREFIX.length + DIGEST_BASE64_LENGTH;
/**
 * Each candidate digest is decoded here in turn rather than into a new buffer per entry: the
 * scan and the comparison are synchronous, so nothing else can touch it in between, and
 * allocating nothing keeps small deliveries cheap.
 */
const candidate = Buffer.alloc(DIGEST_BYTES);
/**
 * Keys of the last few secrets, oldest first, decoded and imported once. A trigger verifies
 * every delivery of its endpoint with one secret: decoding it costs about as much as all other
 * checks together, and a KeyObject saves the HMAC importing the bytes anew on every delivery.
 * A fixed handful covers several active triggers and a rotation pair, and a secret no longer
 * used leaves as soon as newer ones arrive.
 */
const RECENT_KEYS_LIMIT = 4;
const recentKeys = new Map<string, KeyObject>();

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

/** `decodeSecret` through `recentKeys`; a KeyObject holds its own copy, so nobody can alter it. */
function signingKey(secret: string): KeyObject | undefined {
	const cached = recentKeys.get(secret);
	if (cached !== undefined) return cached;
	const bytes = decodeSecret(secret);
	if (bytes === undefined) return undefined;
	const key = createSecretKey(bytes);
	if (recentKeys.size >= RECENT_KEYS_LIMIT) {
		const oldest: string | undefined = recentKeys.keys().next().value;
		if (oldest !== undefined) recentKeys.delete(oldest);
	}
	recentKeys.set(secret, key);
	return key;
}

export function verifySignature(input: VerificationInput): VerificationResult {
	const key = signingKey(input.secret);
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

	let entry = nextV1Entry(signature, 0);
	if (entry < 0) return { ok: false, reason: 'no_v1_signature', header: 'webhook-signature' };
	// One HMAC however many entries the header carries: the cost an attacker can cause stays flat.
	const expected = createHmac('sha256', key)
		.update(`${id}.${timestamp}.`)
		.update(input.body)
		.digest();
	let matched = false;
	for (; entry >= 0; entry = nextV1Entry(signature, entry + V1_ENTRY_LENGTH + 1)) {
		// Compare every entry (no early exit) so timing does not reveal which entry matched.
		if (timingSafeEqual(candidate, expected)) matched = true;
	}
	return matched
		? { ok: true, webhookId: id, timestamp: seconds }
		: { ok: false, reason: 'signature_mismatch' };
}

type HeaderProblem = { reason: 'missing_header' | 'duplicate_header'; header: SigningHeader };

/** What one signing header slot holds while the headers are scanned. */
type Seen = string | readonly string[] | undefined;

function readSigningHeaders(
	source: DeliveryHeaders,
): { id: string; timestamp: string; signature: string } | HeaderProblem {
	const seen: Seen[] = [undefined, undefined, undefined];
	if (Array.isArray(source)) {
		for (let index = 0; index + 1 < source.length; index += 2)
			note(seen, source[index], source[index + 1]);
	} else {
		const record = source as Readonly<Record<string, Seen>>;
		for (const name of Object.keys(record)) note(seen, name, record[name]);
	}
	for (let slot = 0; slot < SIGNING_HEADERS.length; slot++) {
		const value = seen[slot];
		const header = SIGNING_HEADERS[slot];
		if (Array.isArray(value)) return { reason: 'duplicate_header', header };
		if (typeof value !== 'string' || value === '') return { reason: 'missing_header', header };
		// Node's own join of a repeated header: no single signature header contains ", ".
		if (value.includes(', ')) return { reason: 'duplicate_header', header };
	}
	const [id, timestamp, signature] = seen as string[];
	return { id, timestamp, signature };
}

/** Records one header line in its signing slot; a name seen twice becomes a list, which reads as duplicated. */
function note(seen: Seen[], name: unknown, value: Seen): void {
	if (value === undefined || typeof name !== 'string' || !SIGNING_NAME_LENGTHS.has(name.length))
		return;
	let slot = SIGNING_HEADERS.indexOf(name as SigningHeader);
	// Senders mostly spell the names in lower case already; only other spellings pay for lower-casing.
	if (slot < 0) slot = SIGNING_HEADERS.indexOf(name.toLowerCase() as SigningHeader);
	if (slot < 0) return;
	const previous = seen[slot];
	seen[slot] = previous === undefined ? value : [previous, value].flat();
}

/**
 * Where the first well-formed `v1` entry at or after `from` starts, or -1; its digest is then
 * in `candidate`. Entries of other versions, and `v1` entries whose base64 is not canonical or
 * not 32 bytes (truncated, padded oddly), can never match and are skipped.
 */
function nextV1Entry(header: string, from: number): number {
	for (let start = from; start < header.length; ) {
		const space = header.indexOf(' ', start);
		const end = space < 0 ? header.length : space;
		if (
			end - start === V1_ENTRY_LENGTH &&
			header.startsWith(V1_PREFIX, start) &&
			decodeDigest(header, start + V1_PREFIX.length, candidate)
		) {
			return start;
		}
		start = end + 1;
	}
	return -1;
}
