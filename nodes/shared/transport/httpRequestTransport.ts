import type { IAllExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import {
	type ConnectionError,
	connectionError,
	redactSecrets,
	redactValue,
	type TimeoutError,
	timeoutError,
} from '../client/errors';
import type { Transport, TransportRequest, TransportResponse } from '../client/transport';

export const CREDENTIAL_TYPE = 'messagingAutomationApi';

/** `https://api.example.com//` and `https://api.example.com` name the same service. */
export function trimBaseUrl(baseUrl: string): string {
	return baseUrl.trim().replace(/\/+$/, '');
}

const TIMEOUT_CODES = new Set([
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'UND_ERR_CONNECT_TIMEOUT',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
]);

const CONNECTION_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'EPIPE',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ENETDOWN',
	'ENOTFOUND',
	'EAI_AGAIN',
	'UND_ERR_SOCKET',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

const TIMEOUT_TEXT = /\btime(?:d)?[ -]?out\b|\btimeout of \d+ms exceeded\b/i;
const DROPPED_TEXT = /socket hang up|other side closed|terminated/i;

interface FailureClues {
	codes: string[];
	messages: string[];
	hasResponse: boolean;
}

/**
 * n8n wraps a failed request in NodeApiError, whose `cause` is axios's error carrying Node's
 * `code` (ECONNRESET, ECONNREFUSED, ECONNABORTED with "timeout of …ms exceeded", ETIMEDOUT…);
 * NodeApiError may also have replaced the message and put the code in `httpCode` or `messages`.
 * Collect all of it, however deep.
 */
function collectClues(error: unknown): FailureClues {
	const clues: FailureClues = { codes: [], messages: [], hasResponse: false };
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (typeof current === 'object' && current !== null && !seen.has(current)) {
		seen.add(current);
		const level = current as Record<string, unknown>;
		for (const key of ['code', 'httpCode']) {
			if (typeof level[key] === 'string') clues.codes.push((level[key] as string).toUpperCase());
		}
		if (typeof level.message === 'string') clues.messages.push(level.message);
		if (Array.isArray(level.messages)) {
			clues.messages.push(...level.messages.filter((item): item is string => typeof item === 'string'));
		}
		const response = level.response as { status?: unknown } | undefined;
		if (typeof response?.status === 'number') clues.hasResponse = true;
		current = level.cause;
	}
	return clues;
}

/**
 * The typed error for a request that got no response, or undefined when the failure is not a
 * network one (a cancelled execution, missing credentials): those are not retried.
 */
export function mapRequestFailure(
	error: unknown,
	timeoutMs: number,
	target?: string,
): ConnectionError | TimeoutError | undefined {
	const clues = collectClues(error);
	if (clues.hasResponse || clues.codes.includes('ERR_CANCELED')) return undefined;
	const timedOutText = clues.messages.some((message) => TIMEOUT_TEXT.test(message));
	if (clues.codes.some((code) => TIMEOUT_CODES.has(code)) || timedOutText) {
		return timeoutError(timeoutMs, target);
	}
	const code = clues.codes.find((candidate) => CONNECTION_CODES.has(candidate));
	if (code) return connectionError(`the connection failed (${code})`, target);
	if (clues.messages.some((message) => DROPPED_TEXT.test(message))) {
		return connectionError('the connection was closed before an answer arrived', target);
	}
	return undefined;
}

function normaliseHeaders(raw: unknown): Record<string, string | undefined> {
	const headers: Record<string, string | undefined> = {};
	if (typeof raw !== 'object' || raw === null) return headers;
	for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
		if (value === undefined || value === null) continue;
		headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
	}
	return headers;
}

interface FullResponse {
	body: unknown;
	headers: unknown;
	statusCode: number;
}

/**
 * The client's transport inside n8n: every request goes through
 * `httpRequestWithAuthentication`, so the credential adds the key and n8n's proxy, SSRF and
 * cancellation rules apply. The API key is removed from anything that comes back.
 */
export async function createHttpRequestTransport(
	context: IAllExecuteFunctions,
	itemIndex?: number,
): Promise<Transport> {
	const credentials = await context.getCredentials<{ apiKey?: string; baseUrl?: string }>(
		CREDENTIAL_TYPE,
		itemIndex,
	);
	const baseURL = trimBaseUrl(String(credentials.baseUrl ?? ''));
	const secrets = credentials.apiKey ? [String(credentials.apiKey)] : [];

	return async (request: TransportRequest): Promise<TransportResponse> => {
		const options: IHttpRequestOptions = {
			method: request.method,
			baseURL,
			url: request.path,
			headers: { ...request.headers },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: request.timeoutMs,
		};
		if (request.body !== undefined) {
			// As text: n8n's helper drops an empty object, and no-input tools must still get `{}`.
			options.body = JSON.stringify(request.body);
			options.headers = { ...options.headers, 'Content-Type': 'application/json' };
		}
		const outcome = await context.helpers.httpRequestWithAuthentication
			.call(context, CREDENTIAL_TYPE, options)
			.then(
				(response: FullResponse) => ({ response }),
				(failure: unknown) => ({ failure }),
			);
		if ('failure' in outcome) {
			const mapped = mapRequestFailure(outcome.failure, request.timeoutMs, baseURL);
			if (!mapped) throw outcome.failure;
			mapped.message = redactSecrets(mapped.message, secrets);
			throw mapped;
		}
		const { response } = outcome;
		return {
			status: response.statusCode,
			headers: redactValue(normaliseHeaders(response.headers), secrets),
			body: redactValue(response.body === '' ? undefined : response.body, secrets),
		};
	};
}
