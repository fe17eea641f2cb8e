import { describe, expect, it } from 'vitest';

import { checkLink, isNonPublicHost } from '../../../../nodes/shared/transport/linkPolicy';

const SERVICE = 'http://127.0.0.1:4010';

describe('checkLink', () => {
	it('allows the service origin even on loopback, and public hosts', () => {
		expect(checkLink(`${SERVICE}/files/abc`, SERVICE)).toMatchObject({ ok: true, ownOrigin: true });
		expect(checkLink('https://cdn.example.com/a.jpg?sig=1', SERVICE)).toMatchObject({
			ok: true,
			ownOrigin: false,
		});
		expect(checkLink('https://[2001:db8::1]/a', SERVICE)).toMatchObject({
			ok: true,
			ownOrigin: false,
		});
	});

	it.each([
		'http://127.0.0.1:4011/files/abc', // same host, another port
		'https://127.0.0.1:4010/files/abc', // same host and port, another scheme
		'http://localhost:4010/files/abc',
		'http://10.0.0.5/',
		'http://172.20.1.1/',
		'http://192.168.1.1/',
		'http://100.64.0.1/',
		'http://169.254.169.254/latest/meta-data',
		'http://0.0.0.0/',
		'http://224.0.0.1/',
		'http://2130706433/',
		'http://0x7f.0.0.1/',
		'http://017700000001/', // 127.0.0.1 written otherwise
		'http://[::1]/',
		'http://[::]/',
		'http://[::ffff:127.0.0.1]/',
		'http://[::ffff:a9fe:a9fe]/',
		'http://[fd12::1]/',
		'http://[fe80::1]/',
		'http://[64:ff9b::7f00:1]/',
		'http://metadata.google.internal/',
		'http://printer.local/',
		'http://intranet/',
	])('refuses %s', (link) => {
		const verdict = checkLink(link, SERVICE);
		expect(verdict.ok).toBe(false);
		if (!verdict.ok) expect(verdict.reason).toMatch(/private, loopback or link-local/);
	});

	it('refuses schemes other than http(s), and malformed escapes', () => {
		for (const link of [
			'data:text/html,<b>x</b>',
			'file:///etc/passwd',
			'ftp://files.example.com/a',
			'javascript:alert(1)',
		]) {
			expect(checkLink(link, SERVICE)).toMatchObject({
				ok: false,
				reason: expect.stringMatching(/only http and https/),
			});
		}
		expect(checkLink('https://cdn.example.com/a%zz.jpg', SERVICE)).toMatchObject({
			ok: false,
			reason: expect.stringMatching(/percent-escape/),
		});
		expect(checkLink('not a url', SERVICE)).toMatchObject({ ok: false });
	});

	it('trusts no loopback address when the Base URL does not parse', () => {
		expect(checkLink(`${SERVICE}/files/abc`, undefined).ok).toBe(false);
	});

	it('judges written hosts', () => {
		expect(isNonPublicHost('example.com')).toBe(false);
		expect(isNonPublicHost('8.8.8.8')).toBe(false);
		expect(isNonPublicHost('172.32.0.1')).toBe(false);
		expect(isNonPublicHost('172.31.0.1')).toBe(true);
	});
});
