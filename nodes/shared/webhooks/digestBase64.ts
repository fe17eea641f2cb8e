/**
 * Reads the digest of a `v1` signature entry: the canonical standard base64 of exactly 32
 * bytes. Checking and decoding happen in one pass over the characters, into a buffer the
 * caller owns; on small bodies a regular expression plus `Buffer#write` cost about as much as
 * the rest of the verification beside the HMAC.
 */

export const DIGEST_BYTES = 32;
/** 43 characters carry the 256 bits (and two zero bits), then a single `=`. */
export const DIGEST_BASE64_LENGTH = 44;

/** Groups of four characters that decode to three whole bytes: 30 of the 32. */
const FULL_GROUPS = 10;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const PADDING = 0x3d;
/** The 6-bit value of each ASCII code in the standard alphabet, -1 for every other code. */
const SEXTETS = new Int8Array(128).fill(-1);
for (let value = 0; value < ALPHABET.length; value++) SEXTETS[ALPHABET.charCodeAt(value)] = value;

/** The 6-bit value of the character at `index`, or -1 when it is outside the standard alphabet. */
function sextetAt(text: string, index: number): number {
	const code = text.charCodeAt(index);
	return code < SEXTETS.length ? SEXTETS[code] : -1;
}

/**
 * Decodes `text` from `at` into `into` (32 bytes) when the 44 characters there are the
 * canonical encoding of 32 bytes: standard alphabet, one `=`, the two unused bits zero.
 * Anything else returns false, and `into` then holds no meaningful bytes.
 */
export function decodeDigest(text: string, at: number, into: Uint8Array): boolean {
	const tail = at + FULL_GROUPS * 4;
	if (text.length < at + DIGEST_BASE64_LENGTH || text.charCodeAt(tail + 3) !== PADDING)
		return false;
	for (let group = 0; group < FULL_GROUPS; group++) {
		const index = at + group * 4;
		// A -1 anywhere makes the whole word negative: its sign bit survives every shift and OR.
		const word =
			(sextetAt(text, index) << 18) |
			(sextetAt(text, index + 1) << 12) |
			(sextetAt(text, index + 2) << 6) |
			sextetAt(text, index + 3);
		if (word < 0) return false;
		into[group * 3] = word >> 16;
		into[group * 3 + 1] = word >> 8;
		into[group * 3 + 2] = word;
	}
	// The last three characters carry 18 bits: the final two bytes, then two bits that canonical base64 leaves zero.
	const last =
		(sextetAt(text, tail) << 12) | (sextetAt(text, tail + 1) << 6) | sextetAt(text, tail + 2);
	if (last < 0 || (last & 0b11) !== 0) return false;
	into[FULL_GROUPS * 3] = last >> 10;
	into[FULL_GROUPS * 3 + 1] = last >> 2;
	return true;
}
