import type { IAllExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import {
	type ConnectionError,
	connectionError,
	type TimeoutError,
	timeoutError,
} from '../client/errors';
import { redactHeaders, redactSecrets, redactValue } from '../client/redaction';
import type { Transport, TransportRequest, TransportResponse } from '../client/transport';
import { exchangeDeadline, requestWithCredential } from './authenticatedRequest';
import { readServiceCredential, type ServiceCredential } from './credential';
import { deadlines } from './deadline';

export { CREDENTIAL_TYPE, trimBaseUrl } from './credential';

const TIMEOUT_CODES = new Set([
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'UND_ERR_CONNECT_TIMEOUT',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
]);

const CONNECTION_CODES = new Set([
	'ECONNRESET',
	'ECONNABORTED',
	'EPIPE',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ENETDOWN',
	'UND_ERR_SOCKET',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/** No connection was ever made: the request cannot have reached the service. */
const NEVER_CONNECTED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

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
			clues.messages.push(
				...level.messages.filter((item): item is string => typeof item === 'string'),
			);
		}
		const response = level.response as { status?: unknown } | undefined;
		if (typeof response?.status === 'number') clues.hasResponse = true;
		current = level.cause;
	}
	return clues;
}

/**
 * The typed error for a request that got no complete response, or undefined when the failure is
 * not a network one (a cancelled execution, missing credentials): those are not retried. Every
 * HTTP status resolves (ignoreHttpStatusErrors), so a failure that still carries a response broke
 * off inside the body ("stream has been aborted"): the request had been sent and read.
 */
export function mapRequestFailure(
	error: unknown,
	timeoutMs: number,
	target?: string,
): ConnectionError | TimeoutError | undefined {
	const clues = collectClues(error);
	if (clues.codes.includes('ERR_CANCELED')) return undefined;
	const timedOutText = clues.messages.some((message) => TIMEOUT_TEXT.test(message));
	if (clues.codes.some((code) => TIMEOUT_CODES.has(code)) || timedOutText) {
		return timeoutError(timeoutMs, target);
	}
	if (clues.hasResponse) {
		return connectionError(
			'the answer broke off after its headers',
			target,
			'response_interrupted',
		);
	}
	const refused = clues.codes.find((candidate) => NEVER_CONNECTED_CODES.has(candidate));
	if (refused)
		return connectionError(
			`no connection could be made (${refused})`,
			target,
			'connection_refused',
		);
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
 * cancellation rules apply. Redirects are never followed: n8n's helper would carry the key and
 * the body to wherever `Location` points, and the client treats a 3xx as a broken answer. The
 * API key and the base URL's own secrets are removed from anything that comes back.
 */
export function httpRequestTransport(
	context: IAllExecuteFunctions,
	credential: ServiceCredential,
): Transport {
	const { baseUrl: baseURL, displayUrl, secrets } = credential;
	return async (request: TransportRequest): Promise<TransportResponse> => {
		const timer = deadlines.start(request.timeoutMs);
		const exchange = exchangeDeadline(context, timer);
		const options: IHttpRequestOptions = {
			method: request.method,
			baseURL,
			url: request.path,
			headers: { ...request.headers },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
			timeout: request.timeoutMs,
		};
		if (request.body !== undefined) {
			// As text: n8n's helper drops an empty object, and no-input tools must still get `{}`.
			options.body = JSON.stringify(request.body);
			options.headers = { ...options.headers, 'Content-Type': 'application/json' };
		}
		const outcome = await requestWithCredential<FullResponse>(
			context,
			options,
			exchange.signal,
		).then(
			(response) => ({ response }),
			(failure: unknown) => ({ failure }),
		);
		exchange.done();
		if ('failure' in outcome) {
			// The time-out's own signal: a cancelled execution is not a time-out, and is not retried.
			const mapped = timer.signal.aborted
				? timeoutError(request.timeoutMs, displayUrl)
				: mapRequestFailure(outcome.failure, request.timeoutMs, displayUrl);
			if (!mapped) throw redactFailure(outcome.failure, secrets);
			mapped.message = redactSecrets(mapped.message, secrets);
			throw mapped;
		}
		const { response } = outcome;
		return {
			status: response.statusCode,
			headers: redactHeaders(normaliseHeaders(response.headers), secrets),
			body: redactValue(response.body === '' ? undefined : response.body, secrets),
		};
	};
}

/** The same, reading the credential itself. */
export async function createHttpRequestTransport(
	context: IAllExecuteFunctions,
	itemIndex?: number,
): Promise<Transport> {
	return httpRequestTransport(context, await readServiceCredential(context, itemIndex));
}

/** A failure passed on as it is (a cancelled run, missing credentials) loses any secret it quotes. */
function redactFailure(failure: unknown, secrets: readonly string[]): unknown {
	if (failure instanceof Error) {
		failure.message = redactSecrets(failure.message, secrets);
		const description = (failure as { description?: unknown }).description;
		if (typeof description === 'string')
			(failure as { description?: string }).description = redactSecrets(description, secrets);
	}
	return failure;
}
