import {
	type ConnectionError,
	connectionError,
	type ConnectionFailure,
	type TimeoutError,
	timeoutError,
} from '../client/errors';

/*
 * A request that got no complete response, as Node and axios report it (a `code` somewhere in the
 * cause chain, sometimes only words), turned into the client's typed error, worded for its cause.
 */

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

/** No connection was ever made, or the TLS handshake failed: the request never reached the service. */
const NEVER_CONNECTED: ReadonlyArray<[ConnectionFailure, (code: string) => boolean]> = [
	['connection_refused', (code) => code === 'ECONNREFUSED'],
	// ENOTFOUND: the name does not exist; EAI_AGAIN: the DNS server did not answer just now.
	['host_not_found', (code) => code === 'ENOTFOUND'],
	['lookup_failed', (code) => code === 'EAI_AGAIN'],
	[
		'tls_failed',
		(code) =>
			code === 'EPROTO' ||
			/^(ERR_SSL_|ERR_TLS_|CERT_|DEPTH_ZERO_SELF_SIGNED|SELF_SIGNED_CERT|UNABLE_TO_(VERIFY|GET_ISSUER))/.test(
				code,
			),
	],
];

/**
 * Node's codes in words, for the message; the code itself goes under it (`networkCode`), because
 * n8n swaps a node error's message that names one for a generic sentence of its own.
 */
const IN_WORDS: Readonly<Record<string, string>> = {
	ECONNREFUSED: 'connection refused',
	ENOTFOUND: 'no such host',
	EAI_AGAIN: 'the name lookup failed',
	ECONNRESET: 'reset by the other side',
	ECONNABORTED: 'aborted',
	EPIPE: 'broken pipe',
	EHOSTUNREACH: 'host unreachable',
	ENETUNREACH: 'network unreachable',
	ENETDOWN: 'network down',
	UND_ERR_SOCKET: 'socket error',
	ERR_SOCKET_CONNECTION_TIMEOUT: 'no connection in time',
};

// TLS codes (EPROTO, ERR_SSL_…, CERT_…) are not among the ones n8n swaps: they stay as they are.
const inWords = (code: string) => IN_WORDS[code] ?? code;

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

function neverConnected(
	codes: readonly string[],
	target: string | undefined,
): ConnectionError | undefined {
	for (const [failure, matches] of NEVER_CONNECTED) {
		const code = codes.find(matches);
		if (code) return connectionError(inWords(code), target, failure, code);
	}
	return undefined;
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
		return connectionError('stream aborted', target, 'response_interrupted');
	}
	const never = neverConnected(clues.codes, target);
	if (never) return never;
	const code = clues.codes.find((candidate) => CONNECTION_CODES.has(candidate));
	if (code) return connectionError(inWords(code), target, 'connection_error', code);
	if (clues.messages.some((message) => DROPPED_TEXT.test(message))) {
		return connectionError('closed before an answer arrived', target);
	}
	return undefined;
}
