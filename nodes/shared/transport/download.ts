import type { IAllExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { redactSecrets } from '../client/redaction';
import { exchangeDeadline, requestWithCredential } from './authenticatedRequest';
import { displayUrl, type ServiceCredential } from './credential';
import { deadlines } from './deadline';
import { checkLink } from './linkPolicy';

/*
 * Fetches a download link (get_attachment_link's answer) for both nodes. The API key goes along
 * only on the first request and only when the link is on the service's own origin. Redirects are
 * followed here, not by n8n's helper (which would carry the key across origins), at most a few
 * hops, every hop checked against the link policy and fetched without any credential: a storage
 * service a link redirects to needs none, and nobody else may see the key. One deadline covers
 * every hop and the whole body; the body is read up to a size cap and no further.
 */

const DOWNLOAD_MAX_BYTES = 100 * 1024 * 1024;
const MAX_REDIRECTS = 3;
const TIMED_OUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ERR_CANCELED']);

export interface DownloadOptions {
	credential: ServiceCredential;
	timeoutMs: number;
	maxBytes?: number;
}

export interface DownloadedBody {
	data: Buffer;
	headers: Record<string, string | undefined>;
	/** The link the file finally came from. */
	url: string;
}

/** A download that did not complete; the message is safe to show (no key, no link secrets). */
export class DownloadError extends Error {}

interface StreamResponse {
	body: unknown;
	headers: Record<string, unknown>;
	statusCode: number;
}

type BodyStream = AsyncIterable<Buffer> & { destroy?: () => void };

function headerText(value: unknown): string | undefined {
	if (Array.isArray(value)) return value.join(', ');
	return value === undefined || value === null ? undefined : String(value);
}

function close(body: unknown): void {
	(body as BodyStream | undefined)?.destroy?.();
}

async function readCapped(body: unknown, maxBytes: number): Promise<Buffer> {
	if (Buffer.isBuffer(body)) return body;
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body as BodyStream) {
		size += chunk.length;
		if (size > maxBytes) {
			close(body);
			throw new DownloadError(
				`the file is larger than the ${Math.round(maxBytes / 1024 / 1024)} MiB download limit`,
			);
		}
		chunks.push(chunk);
	}
	return Buffer.concat(chunks);
}

function failureCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string') return code;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

async function fetchHop(
	context: IAllExecuteFunctions,
	url: string,
	withKey: boolean,
	signal: AbortSignal,
	timeoutMs: number,
): Promise<StreamResponse> {
	const request: IHttpRequestOptions = {
		method: 'GET',
		url,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: timeoutMs,
		abortSignal: signal,
	};
	return withKey
		? await requestWithCredential<StreamResponse>(context, request, signal)
		: ((await context.helpers.httpRequest(request)) as StreamResponse);
}

async function follow(
	context: IAllExecuteFunctions,
	link: string,
	options: DownloadOptions,
	signal: AbortSignal,
): Promise<DownloadedBody> {
	const maxBytes = options.maxBytes ?? DOWNLOAD_MAX_BYTES;
	let current = link;
	for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
		const verdict = checkLink(current, options.credential.origin);
		if (!verdict.ok)
			throw new DownloadError(
				hop === 0 ? verdict.reason : `a redirect was refused: ${verdict.reason}`,
			);
		const response = await fetchHop(
			context,
			verdict.url.href,
			hop === 0 && verdict.ownOrigin,
			signal,
			options.timeoutMs,
		);
		const headers = Object.fromEntries(
			Object.entries(response.headers ?? {}).map(([name, value]) => [
				name.toLowerCase(),
				headerText(value),
			]),
		);
		const { statusCode } = response;
		if (statusCode >= 300 && statusCode < 400 && headers.location) {
			close(response.body);
			current = URL.canParse(headers.location, current)
				? new URL(headers.location, current).href
				: headers.location;
			continue;
		}
		if (statusCode < 200 || statusCode >= 300) {
			close(response.body);
			throw new DownloadError(
				`the download link answered HTTP ${statusCode}${statusCode === 410 ? ' (expired: ask get_attachment_link for a new one)' : ''}`,
			);
		}
		if (Number(headers['content-length'] ?? 0) > maxBytes) {
			close(response.body);
			throw new DownloadError(
				`the file is larger than the ${Math.round(maxBytes / 1024 / 1024)} MiB download limit`,
			);
		}
		return { data: await readCapped(response.body, maxBytes), headers, url: verdict.url.href };
	}
	throw new DownloadError(`the download link redirected more than ${MAX_REDIRECTS} times`);
}

/** The file behind `link`, or a DownloadError saying why not. */
export async function downloadLink(
	context: IAllExecuteFunctions,
	link: string,
	options: DownloadOptions,
): Promise<DownloadedBody> {
	const timer = deadlines.start(options.timeoutMs);
	const exchange = exchangeDeadline(context, timer);
	const outcome = await follow(context, link, options, exchange.signal).then(
		(file) => ({ file }),
		(failure: unknown) => ({ failure }),
	);
	exchange.done();
	if ('file' in outcome) return outcome.file;
	throw asDownloadError(outcome.failure, link, options, timer.signal.aborted);
}

function asDownloadError(
	failure: unknown,
	link: string,
	options: DownloadOptions,
	pastDeadline: boolean,
): DownloadError {
	if (failure instanceof DownloadError) return failure;
	const code = failureCode(failure);
	if (pastDeadline || TIMED_OUT_CODES.has(code ?? '')) {
		return new DownloadError(`the download did not complete within ${options.timeoutMs / 1000} s`);
	}
	const detail =
		code ??
		redactSecrets(
			failure instanceof Error ? failure.message : String(failure),
			options.credential.secrets,
		);
	return new DownloadError(`the download from ${displayUrl(link)} failed (${detail})`);
}
