import { describe, expect, it } from 'vitest';

import {
	mayHoldSecret,
	redactHeaders,
	redactValue,
} from '../../../../nodes/shared/client/redaction';

const KEY = 'mk_live_owner_Abc123';

/** An answer as a server might send it: the raw text, and what the transport parses it to. */
function parsed(raw: string): unknown {
	try {
		return JSON.parse(raw) as unknown;
	} catch {
		return raw;
	}
}

describe('mayHoldSecret', () => {
	it('clears answers without the key, so the happy path returns them untouched', () => {
		const raw = JSON.stringify({
			account: { id: 'acc_1', name: 'Demo' },
			scopes: ['messenger.read'],
			ready: true,
			n: 1.5e3,
		});
		expect(mayHoldSecret(raw, [KEY])).toBe(false);
		expect(mayHoldSecret('<html><body>Gateway "timeout"</body></html>', [KEY])).toBe(false);
		expect(mayHoldSecret(raw, [])).toBe(false);
		expect(mayHoldSecret(raw, [''])).toBe(false);
	});

	it('sends everything that may spell a secret to redactValue: the key itself, any escape, secrets JSON writes otherwise', () => {
		expect(mayHoldSecret(`{"echo":"${KEY}"}`, [KEY])).toBe(true);
		expect(mayHoldSecret(`{"${KEY}":1}`, [KEY])).toBe(true);
		// The key spelt with a \u escape, or any other escape: only parsing can tell.
		expect(mayHoldSecret(`{"echo":"\\u006dk_live_owner_Abc123"}`, [KEY])).toBe(true);
		expect(mayHoldSecret('{"path":"a\\/b"}', [KEY])).toBe(true);
		// Secrets that may sit outside strings (digits only) or be written escaped (a quote).
		expect(mayHoldSecret('{"n":12345678}', ['1234'])).toBe(true);
		expect(mayHoldSecret('{"ok":true}', ['pw"x'])).toBe(true);
	});

	it('never clears an answer that redactValue would change', () => {
		const secrets = [KEY, 'user:pa55@', 'tok3n_value', '1e5', 'true'];
		const answers = [
			`{"a":"${KEY}"}`,
			`{"a":"x${KEY}y","b":[1,2]}`,
			'{"a":"\\u006dk_live_owner_Abc123"}',
			'{"u":"http://user:pa55@host/"}',
			'{"q":"?t=tok3n_value"}',
			'{"n":100000}',
			'{"ok":true}',
			`plain text with ${KEY} in it`,
			'{"a":"nothing here"}',
			'{"text":"line\\nbreak"}',
		];
		for (const raw of answers) {
			const value = parsed(raw);
			const changed = JSON.stringify(redactValue(value, secrets)) !== JSON.stringify(value);
			if (changed) expect(mayHoldSecret(raw, secrets), raw).toBe(true);
		}
		expect(mayHoldSecret('{"a":"nothing here"}', [KEY, 'user:pa55@', 'tok3n_value'])).toBe(false);
	});
});

describe('redactHeaders', () => {
	it('returns clean headers as they are and redacts an echoed key, plain or JSON-escaped', () => {
		const clean = { 'x-request-id': 'req_1', 'content-type': 'application/json' };
		expect(redactHeaders(clean, [KEY])).toBe(clean);
		expect(redactHeaders({ 'x-echo': `Bearer ${KEY}` }, [KEY])).toEqual({
			'x-echo': 'Bearer [redacted]',
		});
		const quoted = 'k"ey_with_quote';
		expect(JSON.stringify(redactHeaders({ 'x-echo': `a ${quoted}` }, [quoted]))).not.toContain(
			'ey_with_quote',
		);
	});
});
