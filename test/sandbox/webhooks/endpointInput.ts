import { isIP } from 'node:net';
import { SandboxApiError } from '../sandboxError';
import { EVENT_TYPES, type EventType } from './types';

export interface EndpointInput {
	url?: string;
	eventTypes?: EventType[];
}

const MAX_URL_LENGTH = 2048;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function invalid(field: string, message: string): SandboxApiError {
	return new SandboxApiError(400, 'invalid_input', `${field}: ${message}`, { field });
}

/**
 * Create needs both fields, PATCH at least accepts either; both reject unknown properties
 * because the spec says request objects do.
 */
export function parseEndpointInput(
	body: unknown,
	mode: 'create' | 'patch',
	strictUrls: boolean,
): EndpointInput {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		throw new SandboxApiError(400, 'invalid_input', 'request body must be a JSON object');
	}
	const record = body as Record<string, unknown>;
	for (const key of Object.keys(record)) {
		if (key !== 'url' && key !== 'event_types') throw invalid(key, `unknown property '${key}'`);
	}
	if (mode === 'create') {
		if (record.url === undefined) throw invalid('url', 'required');
		if (record.event_types === undefined) throw invalid('event_types', 'required');
	}
	return {
		url: record.url === undefined ? undefined : parseUrl(record.url, strictUrls),
		eventTypes: record.event_types === undefined ? undefined : parseEventTypes(record.event_types),
	};
}

function parseUrl(value: unknown, strictUrls: boolean): string {
	if (typeof value !== 'string' || value.length === 0)
		throw invalid('url', 'must be a non-empty string');
	if (value.length > MAX_URL_LENGTH)
		throw invalid('url', `must be at most ${MAX_URL_LENGTH} characters`);
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw invalid('url', 'must be an absolute URL');
	}
	if (url.username || url.password) throw invalid('url', 'must not contain credentials');
	const loopback = LOOPBACK_HOSTS.has(url.hostname);
	if (url.protocol === 'https:') {
		if (strictUrls && !isPublicHost(url.hostname))
			throw invalid('url', 'must be a public HTTPS address');
		return url.toString();
	}
	// Local development receivers cannot easily present a trusted certificate, so plain loopback
	// http is tolerated unless the sandbox runs with strictUrls.
	if (url.protocol === 'http:' && loopback && !strictUrls) return url.toString();
	throw invalid(
		'url',
		strictUrls ? 'must be a public HTTPS address' : 'must use https (http only for localhost)',
	);
}

function isPublicHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '');
	if (
		LOOPBACK_HOSTS.has(hostname) ||
		host.endsWith('.localhost') ||
		(!host.includes('.') && !isIP(host))
	) {
		return false;
	}
	if (isIP(host) === 4) {
		const [a, b] = host.split('.').map(Number);
		return !(
			a === 10 ||
			a === 127 ||
			a === 0 ||
			(a === 169 && b === 254) ||
			(a === 172 && b >= 16 && b <= 31) ||
			(a === 192 && b === 168)
		);
	}
	if (isIP(host) === 6) return !/^(::1?$|f[cd]|fe80)/i.test(host);
	return true;
}

function parseEventTypes(value: unknown): EventType[] {
	if (!Array.isArray(value) || value.length === 0)
		throw invalid('event_types', 'must be a non-empty array');
	value.forEach((item, index) => {
		if (!(EVENT_TYPES as readonly unknown[]).includes(item)) {
			throw invalid(`event_types[${index}]`, `must be one of ${EVENT_TYPES.join(', ')}`);
		}
	});
	// Repeating a type changes nothing about what is delivered, so it is folded rather than refused.
	return [...new Set(value as EventType[])];
}
