/*
 * Secrets (the API key, the base URL's user info and tokens) never appear in anything the
 * client returns or throws, whatever a server or a library echoes.
 */

const REDACTED = '[redacted]';

/** A secret as it appears in text, and as it appears inside JSON when it holds `"`, `\\` or control characters. */
function writtenForms(secret: string): string[] {
	const escaped = JSON.stringify(secret).slice(1, -1);
	// The escaped form first: it can contain the plain one (`a\\b` holds `a\b`), never the reverse.
	return escaped === secret ? [secret] : [escaped, secret];
}

/** Replaces every occurrence of each secret (the API key), plain or JSON-escaped, in a text. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
	let result = text;
	for (const secret of secrets) {
		if (secret.length === 0) continue;
		for (const form of writtenForms(secret)) result = result.split(form).join(REDACTED);
	}
	return result;
}

/** The same for any JSON value: only rebuilt when a secret actually occurs in it. */
export function redactValue<T>(value: T, secrets: readonly string[] = []): T {
	if (value === undefined || secrets.every((secret) => secret.length === 0)) return value;
	const text = JSON.stringify(value);
	if (text === undefined) return value;
	const redacted = redactSecrets(text, secrets);
	if (redacted === text) return value;
	try {
		return JSON.parse(redacted) as T;
	} catch {
		// A secret that cut through JSON syntax: nothing of the value is safe to keep.
		return REDACTED as T;
	}
}

/** What JSON.stringify writes outside strings: punctuation, numbers, true, false, null. */
const OUTSIDE_STRINGS = /^[{}[\]:,0-9eE+.\-truefalsn]*$/;

/**
 * A secret that can only ever appear inside a string, spelt as it is: no quote, backslash or
 * control character, and some character JSON never writes outside a string (an API key's `_`).
 */
function spelledOnlyAsItself(secret: string): boolean {
	return writtenForms(secret).length === 1 && !OUTSIDE_STRINGS.test(secret);
}

/**
 * False only when `raw`, the text an answer arrived as (JSON or not), provably holds no secret:
 * without a backslash no escape can spell one differently, so a plain search settles it, and
 * redactValue would return the parsed answer unchanged. The happy path then skips rebuilding
 * every answer; true sends it through redactValue as before.
 */
export function mayHoldSecret(raw: string, secrets: readonly string[] = []): boolean {
	const given = secrets.filter((secret) => secret.length > 0);
	if (given.length === 0) return false;
	if (raw.includes('\\')) return true;
	return given.some((secret) => !spelledOnlyAsItself(secret) || raw.includes(secret));
}

/** Response headers without secrets; rebuilt only when one may be in them (a line break never is in a secret). */
export function redactHeaders(
	headers: Record<string, string | undefined>,
	secrets: readonly string[] = [],
): Record<string, string | undefined> {
	return mayHoldSecret(Object.values(headers).join('\n'), secrets)
		? redactValue(headers, secrets)
		: headers;
}
