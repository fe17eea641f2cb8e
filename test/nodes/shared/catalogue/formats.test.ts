import { describe, expect, it } from 'vitest';
import {
	chars,
	conversationKind,
	IDEMPOTENCY_KEY_PATTERN,
	integer,
	list,
} from '../../../../nodes/shared/catalogue/formats';

const message = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
	result.error?.issues[0]?.message;

describe('bounded building blocks state the whole rule in their messages', () => {
	it('chars names both bounds, or the exact length', () => {
		expect(message(chars(1, 10).safeParse(''))).toBe('must be 1-10 characters');
		expect(message(chars(1, 10).safeParse('a'.repeat(11)))).toBe('must be 1-10 characters');
		expect(message(chars(3, 3).safeParse('EURO'))).toBe('must be exactly 3 characters');
	});

	it('integer names its range and rejects fractions', () => {
		expect(message(integer(1, 90).safeParse(91))).toBe('must be an integer from 1 to 90');
		expect(message(integer(1, 90).safeParse(0))).toBe('must be an integer from 1 to 90');
		expect(integer(1, 90).safeParse(1.5).success).toBe(false);
	});

	it('list names its size range, or only the maximum when empty lists are fine', () => {
		expect(message(list(chars(1, 5), 1, 2).safeParse([]))).toBe('must have 1-2 items');
		expect(message(list(chars(1, 5), 0, 2).safeParse(['a', 'b', 'c']))).toBe(
			'must have at most 2 items',
		);
		expect(list(chars(1, 5), 0, 2).safeParse([]).success).toBe(true);
	});
});

describe('IDEMPOTENCY_KEY_PATTERN (shared with the header checks)', () => {
	it.each(['abcdefgh', 'evt_01HZX3K9Q2:node-1', 'A'.repeat(128)])('accepts %s', (key) => {
		expect(IDEMPOTENCY_KEY_PATTERN.test(key)).toBe(true);
	});
	it.each(['abcdefg', 'A'.repeat(129), 'evt 123456', 'key/123456', 'ключ-12345'])(
		'rejects %s',
		(key) => {
			expect(IDEMPOTENCY_KEY_PATTERN.test(key)).toBe(false);
		},
	);
});

describe('conversationKind', () => {
	it.each([
		['4915112345678@s.whatsapp.net', 'qrDirect'],
		['120363025246125486@g.us', 'qrGroup'],
		['4915112345678-1600000000@g.us', 'qrGroup'],
		['4915112345678', 'business'],
		['conv_123', 'unknown'],
		['+4915112345678', 'unknown'],
		['4915@s.whatsapp.net.evil', 'unknown'],
		['', 'unknown'],
	])('%s is %s', (conversationId, kind) => {
		expect(conversationKind(conversationId)).toBe(kind);
	});
});
