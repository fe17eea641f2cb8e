import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
	decodeDigest,
	DIGEST_BASE64_LENGTH,
	DIGEST_BYTES,
} from '../../../../nodes/shared/webhooks/digestBase64';

/** Oracle: Node's own decoder plus a round trip, the rule the verifier used before it decoded by hand. */
function canonicalDigest(text: string): Buffer | undefined {
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
	const bytes = Buffer.from(text, 'base64');
	return bytes.length === DIGEST_BYTES && bytes.toString('base64') === text ? bytes : undefined;
}

function decoded(text: string, at = 0): Buffer | undefined {
	const into = Buffer.alloc(DIGEST_BYTES);
	return decodeDigest(text, at, into) ? into : undefined;
}

/** Characters a mutation may put in: the alphabet, the usual impostors, and non-ASCII. */
const REPLACEMENTS = 'AZaz09+/=-_. ,\u0000\u007f\u00e9\u0100\u{1f44b}';

describe('decodeDigest', () => {
	it('decodes the canonical encoding of any 32 bytes, at any offset', () => {
		for (let round = 0; round < 500; round++) {
			const bytes = randomBytes(DIGEST_BYTES);
			const text = bytes.toString('base64');
			expect(text).toHaveLength(DIGEST_BASE64_LENGTH);
			expect(decoded(text)).toEqual(bytes);
			expect(decoded(`v1,${text} rest`, 3)).toEqual(bytes);
		}
	});

	it('agrees with the Node decoder plus round trip on single-character mutations', () => {
		let rejected = 0;
		for (let round = 0; round < 300; round++) {
			const text = randomBytes(DIGEST_BYTES).toString('base64');
			for (let position = 0; position < text.length; position++) {
				const replacement = [...REPLACEMENTS][round % [...REPLACEMENTS].length];
				const mutated = text.slice(0, position) + replacement + text.slice(position + 1);
				const expected = canonicalDigest(mutated);
				if (expected === undefined) rejected++;
				expect(decoded(mutated), JSON.stringify(mutated)).toEqual(expected);
			}
		}
		expect(rejected).toBeGreaterThan(0);
	});

	it('rejects every non-canonical last character, which Node would decode to the same bytes', () => {
		const text = Buffer.alloc(DIGEST_BYTES, 0xff).toString('base64');
		const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
		const accepted = [...alphabet].filter(
			(last) => decoded(`${text.slice(0, 42)}${last}=`) !== undefined,
		);
		expect(accepted.join('')).toBe('AEIMQUYcgkosw048');
	});

	it.each([
		['missing padding', (text: string) => text.slice(0, 43)],
		['double padding', (text: string) => `${text.slice(0, 42)}==`],
		[
			'base64url alphabet',
			(text: string) => text.replace(/\+/g, '-').replace(/\//g, '_').replace(/^./, '-'),
		],
		['too short for the offset', (text: string) => text.slice(1)],
	])('rejects %s', (_name, change) => {
		const text = Buffer.alloc(DIGEST_BYTES, 0xfb).toString('base64');
		expect(decoded(change(text))).toBeUndefined();
	});
});
