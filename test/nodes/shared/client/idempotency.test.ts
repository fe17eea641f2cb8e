import { describe, expect, it } from 'vitest';

import {
	deriveIdempotencyKey,
	generateIdempotencyKey,
	isValidIdempotencyKey,
	shortHash,
} from '../../../../nodes/shared/client/idempotency';

describe('isValidIdempotencyKey', () => {
	it('accepts 8-128 characters of letters, digits, . _ : -', () => {
		expect(isValidIdempotencyKey('abcdefgh')).toBe(true);
		expect(isValidIdempotencyKey('A.b_c:d-9')).toBe(true);
		expect(isValidIdempotencyKey('x'.repeat(128))).toBe(true);
	});
	it('rejects too short, too long and other characters', () => {
		expect(isValidIdempotencyKey('abcdefg')).toBe(false);
		expect(isValidIdempotencyKey('x'.repeat(129))).toBe(false);
		for (const bad of ['abcdefg h', 'abcdefgh/', 'abcdéfgh', 'abcd+efgh'])
			expect(isValidIdempotencyKey(bad)).toBe(false);
	});
});

describe('generateIdempotencyKey', () => {
	it('gives valid, distinct keys', () => {
		const keys = new Set(Array.from({ length: 1000 }, generateIdempotencyKey));
		expect(keys.size).toBe(1000);
		for (const key of keys) expect(isValidIdempotencyKey(key)).toBe(true);
	});
});

describe('deriveIdempotencyKey', () => {
	it('is stable for one event, node and batch, and keeps the event id readable', () => {
		const key = deriveIdempotencyKey('evt_01HZX', 'node-uuid-1', 2);
		expect(key).toBe(deriveIdempotencyKey('evt_01HZX', 'node-uuid-1', 2));
		expect(key.startsWith('evt_01HZX:')).toBe(true);
		expect(key.endsWith(':2')).toBe(true);
		expect(isValidIdempotencyKey(key)).toBe(true);
	});

	it('differs between nodes, batches and events', () => {
		const keys = [
			deriveIdempotencyKey('evt_1', 'node-a'),
			deriveIdempotencyKey('evt_1', 'node-b'),
			deriveIdempotencyKey('evt_1', 'node-a', 0),
			deriveIdempotencyKey('evt_1', 'node-a', 1),
			deriveIdempotencyKey('evt_2', 'node-a'),
		];
		expect(new Set(keys).size).toBe(keys.length);
	});

	it('hashes over-long or unsafe event ids and always stays within 8-128 characters', () => {
		for (const eventId of ['e', 'evt_' + 'x'.repeat(200), 'evt with spaces/and#symbols', '']) {
			for (const batch of [undefined, 0, 123_456_789]) {
				const key = deriveIdempotencyKey(eventId, 'node-1', batch);
				expect(isValidIdempotencyKey(key), key).toBe(true);
			}
		}
		const long = 'evt_' + 'x'.repeat(200);
		expect(deriveIdempotencyKey(long, 'n')).not.toBe(deriveIdempotencyKey(long + 'y', 'n'));
	});

	it('shortHash is deterministic and alphabet-safe', () => {
		expect(shortHash('a')).toBe(shortHash('a'));
		expect(shortHash('a')).toMatch(/^[A-Za-z0-9_-]{12}$/);
	});
});
