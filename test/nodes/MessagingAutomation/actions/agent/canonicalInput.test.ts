import { describe, expect, it } from 'vitest';

import { canonicalJson } from '../../../../../nodes/MessagingAutomation/actions/tool/idempotencyKeys';

/* The input part of an AI Agent call's key: equal inputs read the same whatever the key order. */
describe('canonical input of a tool call', () => {
	it('reads equal inputs the same, in any key order and at any depth', () => {
		const one = {
			text: 'hi',
			phoneNumber: '4915112345678',
			nested: { b: [1, { y: 2, x: 1 }], a: null },
		};
		const other = {
			nested: { a: null, b: [1, { x: 1, y: 2 }] },
			phoneNumber: '4915112345678',
			text: 'hi',
		};
		expect(canonicalJson(one)).toBe(canonicalJson(other));
		expect(canonicalJson(one)).toBe(
			'{"nested":{"a":null,"b":[1,{"x":1,"y":2}]},"phoneNumber":"4915112345678","text":"hi"}',
		);
	});

	it('tells apart inputs that differ in a value, in list order, or in a field left out', () => {
		const base = canonicalJson({ text: 'hi', list: ['a', 'b'] });
		expect(canonicalJson({ text: 'hi!', list: ['a', 'b'] })).not.toBe(base);
		expect(canonicalJson({ text: 'hi', list: ['b', 'a'] })).not.toBe(base);
		expect(canonicalJson({ text: 'hi' })).not.toBe(base);
		expect(canonicalJson({ text: 'hi', list: ['a', 'b'], extra: undefined })).toBe(base);
	});
});
