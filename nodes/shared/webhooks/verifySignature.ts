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
/** Longest `webhook-timestamp` taken: twelve digits are seconds far beyond any real clock. */
const TIMESTAMP_MAX_DIGITS = 12;
/** Longest `webhook-id` taken. */
const ID_MAX_LENGTH = 256;
const SIGNING_HEADERS: readonly SigningHeader[] = [
	'webhook-id',
	'webhook-timestamp',
	'webhook-signature',
];
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

	const problem = readSigningHeaders(input.headers);
	if (problem !== undefined) return { ok: false, ...problem };
	const id = seen[ID] as string;
	const timestamp = seen[TIMESTAMP] as string;
	const signature = seen[SIGNATURE] as string;

	// Node joins a repeated header with ", ", which a well-formed id or timestamp cannot hold:
	// only a malformed one is searched for it (the search costs more than the rest of the scan).
	if (!isWebhookId(id)) {
		return { ok: false, reason: joined(id, 'invalid_id'), header: 'webhook-id' };
	}
	const seconds = timestampSeconds(timestamp);
	if (seconds < 0) {
		return {
			ok: false,
			reason: joined(timestamp, 'invalid_timestamp'),
			header: 'webhook-timestamp',
		};
	}
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

/** Slots of `SIGNING_HEADERS`, in `seen`. */
const ID = 0;
const TIMESTAMP = 1;
const SIGNATURE = 2;

/**
 * The signing headers of the delivery being verified, by slot. One list for every call, as
 * `candidate` is: the scan is synchronous and `verifySignature` reads it before it returns.
 */
const seen: Seen[] = [undefined, undefined, undefined];

/** Fills `seen`; undefined when each signing header occurs once, with a value. */
function readSigningHeaders(source: DeliveryHeaders): HeaderProblem | undefined {
	for (let slot = ID; slot <= SIGNATURE; slot++) seen[slot] = undefined;
	if (Array.isArray(source)) {
		for (let index = 0; index + 1 < source.length; index += 2)
			note(source[index], source[index + 1]);
	} else {
		const record = source as Readonly<Record<string, Seen>>;
		for (const name of Object.keys(record)) note(name, record[name]);
	}
	for (let slot = ID; slot <= SIGNATURE; slot++) {
		const value = seen[slot];
		const header = SIGNING_HEADERS[slot];
		if (Array.isArray(value)) return { reason: 'duplicate_header', header };
		if (typeof value !== 'string' || value === '') return { reason: 'missing_header', header };
	}
	// Entries are separated by single spaces: no signature header of one sender holds ", ".
	const signature = seen[SIGNATURE];
	if (typeof signature === 'string' && signature.includes(', '))
		return { reason: 'duplicate_header', header: 'webhook-signature' };
	return undefined;
}

/** Records one header line in its signing slot; a name seen twice becomes a list, which reads as duplicated. */
function note(name: unknown, value: Seen): void {
	if (value === undefined || typeof name !== 'string') return;
	const slot = slotOf(name);
	if (slot < 0) return;
	const previous = seen[slot];
	seen[slot] = previous === undefined ? value : [previous, value].flat();
}

const LOWER_CASE_BIT = 0x20;
const CODE_W = 0x77;
const CODE_S = 0x73;
/** Where `webhook-timestamp` and `webhook-signature`, equally long, first differ. */
const LONG_NAMES_DIFFER_AT = 'webhook-'.length;

/**
 * The slot of a signing header name in any spelling, or -1. Length and a letter or two rule out
 * the other headers of a delivery, so that only a signing name in unusual case is lower-cased.
 */
function slotOf(name: string): number {
	if ((name.charCodeAt(0) | LOWER_CASE_BIT) !== CODE_W) return -1;
	let slot: number;
	if (name.length === SIGNING_HEADERS[ID].length) slot = ID;
	else if (name.length !== SIGNING_HEADERS[SIGNATURE].length) return -1;
	else
		slot =
			(name.charCodeAt(LONG_NAMES_DIFFER_AT) | LOWER_CASE_BIT) === CODE_S ? SIGNATURE : TIMESTAMP;
	const expected = SIGNING_HEADERS[slot];
	return name === expected || name.toLowerCase() === expected ? slot : -1;
}

/** Visible ASCII only, 1 to `ID_MAX_LENGTH` characters. */
function isWebhookId(id: string): boolean {
	if (id.length > ID_MAX_LENGTH) return false;
	for (let index = 0; index < id.length; index++) {
		const code = id.charCodeAt(index);
		if (code < 0x21 || code > 0x7e) return false;
	}
	return id.length > 0;
}

/** The seconds a plain run of 1 to 12 ASCII digits stands for, or -1 for anything else. */
function timestampSeconds(timestamp: string): number {
	if (timestamp.length === 0 || timestamp.length > TIMESTAMP_MAX_DIGITS) return -1;
	let seconds = 0;
	for (let index = 0; index < timestamp.length; index++) {
		const digit = timestamp.charCodeAt(index) - 0x30;
		if (digit < 0 || digit > 9) return -1;
		seconds = seconds * 10 + digit;
	}
	return seconds;
}

/** A malformed id or timestamp that is Node's join of two copies is a duplicated header. */
function joined(value: string, otherwise: VerificationFailure): VerificationFailure {
	return value.includes(', ') ? 'duplicate_header' : otherwise;
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
