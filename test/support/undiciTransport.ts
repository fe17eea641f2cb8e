import type { EventEmitter } from 'node:events';

import { Agent, request } from 'undici';

import { timeoutError } from '../../nodes/shared/client/errors';
import { mayHoldSecret, redactHeaders, redactValue } from '../../nodes/shared/client/redaction';
import type { Transport, TransportResponse } from '../../nodes/shared/client/transport';
import { type ClockDeadline, DeadlineClock } from '../../nodes/shared/transport/deadline';
import { mapRequestFailure, trimBaseUrl } from '../../nodes/shared/transport/httpRequestTransport';

export interface UndiciTransportOptions {
	baseUrl: string;
	apiKey: string;
	/** `bearer` (default) or the key alone in `headerName` (default X-API-Key). */
	authScheme?: 'bearer' | 'header';
	headerName?: string;
	/** Share one pool between transports; otherwise each transport owns a keep-alive Agent. */
	agent?: Agent;
}

export interface UndiciTransport extends Transport {
	close(): Promise<void>;
}

/**
 * The nodes' deadline clock (one deadline per exchange, body included), on timers that do not
 * keep a test or bench process alive once its work is done.
 */
const deadlines = new DeadlineClock({
	now: () => performance.now(),
	sleep: async (ms) => await new Promise((resolve) => setTimeout(resolve, ms).unref()),
});

interface ExpirySignal {
	readonly aborted: boolean;
	on(event: string, listener: () => void): ExpirySignal;
	once(event: string, listener: () => void): ExpirySignal;
	removeListener(event: string, listener: () => void): ExpirySignal;
}

/**
 * undici takes an EventEmitter-like signal as well as an AbortSignal: this one hands undici's
 * listeners straight to the deadline, so a call costs no EventTarget listener bookkeeping. Made
 * for `request()`, which listens once per call and reads no reason from it.
 */
function expirySignal(deadline: ClockDeadline): ExpirySignal {
	const removals = new Map<() => void, () => void>();
	const listen = (_event: string, listener: () => void) => {
		if (!removals.has(listener)) removals.set(listener, deadline.onExpiry(listener));
		return signal;
	};
	const signal: ExpirySignal = {
		get aborted() {
			return deadline.expired;
		},
		on: listen,
		once: listen,
		removeListener: (_event, listener) => {
			removals.get(listener)?.();
			removals.delete(listener);
			return signal;
		},
	};
	return signal;
}

function parseBody(text: string): unknown {
	if (text.length === 0) return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

function flatHeaders(
	raw: Record<string, string | string[] | undefined>,
): Record<string, string | undefined> {
	const headers: Record<string, string | undefined> = {};
	for (const name in raw) {
		const value = raw[name];
		headers[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return headers;
}

/** What came back, secrets removed; answers whose raw text provably holds none are not rebuilt. */
function redacted(
	status: number,
	headers: Record<string, string | undefined>,
	text: string,
	secrets: string[],
): TransportResponse {
	const body = parseBody(text);
	return {
		status,
		headers: redactHeaders(headers, secrets),
		body: mayHoldSecret(text, secrets) ? redactValue(body, secrets) : body,
	};
}

/** The client's transport for tests, the sandbox and benchmarks: undici over a keep-alive pool. */
export function createUndiciTransport(options: UndiciTransportOptions): UndiciTransport {
	const baseUrl = trimBaseUrl(options.baseUrl);
	const agent = options.agent ?? new Agent({ keepAliveTimeout: 10_000, connections: 128 });
	const auth: Record<string, string> =
		options.authScheme === 'header'
			? { [options.headerName ?? 'X-API-Key']: options.apiKey }
			: { authorization: `Bearer ${options.apiKey}` };
	const secrets = [options.apiKey];

	const transport = async (req: Parameters<Transport>[0]): Promise<TransportResponse> => {
		const headers: Record<string, string> = { accept: 'application/json', ...req.headers, ...auth };
		let body: string | undefined;
		if (req.body !== undefined) {
			body = JSON.stringify(req.body);
			headers['content-type'] = 'application/json';
		}
		const deadline = deadlines.start(req.timeoutMs);
		try {
			const response = await request(`${baseUrl}${req.path}`, {
				method: req.method,
				headers,
				body,
				dispatcher: agent,
				// undici's types name only AbortSignal; its code takes any EventEmitter-like object.
				signal: expirySignal(deadline) as unknown as EventEmitter,
			});
			const text = await response.body.text();
			return redacted(response.statusCode, flatHeaders(response.headers), text, secrets);
		} catch (error) {
			if (deadline.expired) throw timeoutError(req.timeoutMs, baseUrl);
			throw mapRequestFailure(error, req.timeoutMs, baseUrl) ?? error;
		} finally {
			deadline.done();
		}
	};
	let closed = false;
	return Object.assign(transport, {
		close: async () => {
			if (options.agent || closed) return;
			closed = true;
			await agent.close();
		},
	});
}
