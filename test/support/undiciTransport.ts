import { Agent, request } from 'undici';

import { redactValue } from '../../nodes/shared/client/errors';
import type { Transport, TransportResponse } from '../../nodes/shared/client/transport';
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

function parseBody(text: string): unknown {
	if (text.length === 0) return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
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
		try {
			const response = await request(`${baseUrl}${req.path}`, {
				method: req.method,
				headers,
				body,
				dispatcher: agent,
				signal: AbortSignal.timeout(req.timeoutMs),
			});
			const text = await response.body.text();
			const responseHeaders: Record<string, string | undefined> = {};
			for (const [name, value] of Object.entries(response.headers)) {
				responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
			}
			return {
				status: response.statusCode,
				headers: redactValue(responseHeaders, secrets),
				body: redactValue(parseBody(text), secrets),
			};
		} catch (error) {
			throw mapRequestFailure(error, req.timeoutMs, baseUrl) ?? error;
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
