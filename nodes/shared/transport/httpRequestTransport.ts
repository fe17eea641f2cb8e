import type { IAllExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { timeoutError } from '../client/errors';
import { redactHeaders, redactSecrets, redactValue } from '../client/redaction';
import type { Transport, TransportRequest, TransportResponse } from '../client/transport';
import { exchangeDeadline, requestWithCredential } from './authenticatedRequest';
import { readServiceCredential, type ServiceCredential } from './credential';
import { deadlines } from './deadline';
import { mapRequestFailure } from './requestFailure';

export { CREDENTIAL_TYPE, trimBaseUrl } from './credential';
export { mapRequestFailure } from './requestFailure';

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
