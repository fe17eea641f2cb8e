import { describe, expect, it } from 'vitest';

import {
	baseUrlSecrets,
	displayUrl,
	trimBaseUrl,
} from '../../../../nodes/shared/transport/credential';

describe('the Base URL in messages', () => {
	it('drops user info, query and fragment', () => {
		expect(displayUrl('http://user:pw@api.example.com:8443/base?token=abc#frag')).toBe(
			'http://api.example.com:8443/base',
		);
		expect(displayUrl('https://api.example.com')).toBe('https://api.example.com');
		expect(displayUrl('not a url://user:pw@x?token=1')).toBe('not a url://x');
	});

	it('lists what the Base URL carries that must be redacted, raw and decoded', () => {
		const secrets = baseUrlSecrets(
			'http://admin:s%40cret-pw@api.example.com/?token=tok%2F12345&mode=full',
		);
		expect(secrets).toEqual(
			expect.arrayContaining([
				'admin:s%40cret-pw@',
				's%40cret-pw',
				's@cret-pw',
				'token=tok%2F12345&mode=full',
				'tok%2F12345',
				'tok/12345',
			]),
		);
		// Short values would redact ordinary words; they are covered by the whole query above.
		expect(secrets).not.toContain('full'.slice(0, 3));
		expect(baseUrlSecrets('https://api.example.com')).toEqual([]);
	});

	it('trims trailing slashes and spaces', () => {
		expect(trimBaseUrl(' https://api.test/// ')).toBe('https://api.test');
	});
});
