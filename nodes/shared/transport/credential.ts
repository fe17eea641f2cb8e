import type { IAllExecuteFunctions } from 'n8n-workflow';

import { shortHash } from '../client/idempotency';

export const CREDENTIAL_TYPE = 'messagingAutomationApi';

/** The credential as every request path needs it: where to send, and what must never be shown. */
export interface ServiceCredential {
	/** As entered, trailing slashes removed: what requests go to. */
	baseUrl: string;
	/** The base URL without user info, query or fragment: safe in messages. */
	displayUrl: string;
	/** `scheme://host:port` of the service, or undefined when the base URL does not parse. */
	origin?: string;
	/** The API key and any secret the base URL itself carries. */
	secrets: string[];
}

/** `https://api.example.com//` and `https://api.example.com` name the same service. */
export function trimBaseUrl(baseUrl: string): string {
	return baseUrl.trim().replace(/\/+$/, '');
}

function parse(url: string): URL | undefined {
	return URL.canParse(url) ? new URL(url) : undefined;
}

/** A URL as it may appear in errors and output: `http://user:pw@host/?token=x` → `http://host/`. */
export function displayUrl(url: string): string {
	const parsed = parse(url);
	if (!parsed) return url.replace(/\/\/[^/@]*@/, '//').replace(/[?#].*$/, '');
	return `${parsed.origin}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}

// Shorter values would redact ordinary words in messages; the whole user info and query are caught anyway.
const MIN_SECRET_PART = 4;

function bothForms(value: string): string[] {
	let decoded = value;
	try {
		decoded = decodeURIComponent(value);
	} catch {
		// A malformed escape: the raw form is the only one that can appear.
	}
	return decoded === value ? [value] : [value, decoded];
}

/**
 * What a base URL such as `http://user:pw@host/?token=abc` carries that must not be shown: the
 * user info, the query and their values, raw and decoded, so they are redacted wherever a
 * library echoes them.
 */
export function baseUrlSecrets(baseUrl: string): string[] {
	const parsed = parse(baseUrl.trim());
	if (!parsed) return [];
	const parts: string[] = [];
	if (parsed.username || parsed.password) {
		parts.push(
			`${parsed.username}${parsed.password ? `:${parsed.password}` : ''}@`,
			parsed.password,
		);
	}
	if (parsed.search) {
		const query = parsed.search.slice(1);
		parts.push(query, ...query.split('&').map((pair) => pair.slice(pair.indexOf('=') + 1)));
	}
	if (parsed.hash.length > 1) parts.push(parsed.hash.slice(1));
	return [...new Set(parts.filter((part) => part.length >= MIN_SECRET_PART).flatMap(bothForms))];
}

export async function readServiceCredential(
	context: IAllExecuteFunctions,
	itemIndex?: number,
): Promise<ServiceCredential> {
	const credentials = await context.getCredentials<{ apiKey?: string; baseUrl?: string }>(
		CREDENTIAL_TYPE,
		itemIndex,
	);
	const baseUrl = trimBaseUrl(String(credentials.baseUrl ?? ''));
	const apiKey = String(credentials.apiKey ?? '');
	return {
		baseUrl,
		displayUrl: displayUrl(baseUrl),
		origin: parse(baseUrl)?.origin,
		secrets: [...(apiKey ? [apiKey] : []), ...baseUrlSecrets(baseUrl)],
	};
}

/** Names the service and key a cached answer belongs to, without keeping the key or the base URL's secrets. */
export function fingerprintOf({ baseUrl, displayUrl: shown, secrets }: ServiceCredential): string {
	return `${shown}#${shortHash([baseUrl, ...secrets].join('\n'), 16)}`;
}

export async function credentialFingerprint(context: IAllExecuteFunctions): Promise<string> {
	return fingerprintOf(await readServiceCredential(context));
}
