import type { IAllExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import type { MessagingClient } from '../client';
import { CREDENTIAL_TYPE, trimBaseUrl } from '../transport/httpRequestTransport';

export interface DownloadedFile {
	data: Buffer;
	fileName?: string;
	mimeType?: string;
}

export type DownloadResult = { ok: true; file: DownloadedFile } | { ok: false; reason: string };

interface AttachmentLink {
	url?: unknown;
	file_name?: unknown;
	mime_type?: unknown;
}

const optionalText = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

function sameOrigin(link: string, baseUrl: string): boolean {
	return URL.canParse(link) && URL.canParse(baseUrl) && new URL(link).origin === new URL(baseUrl).origin;
}

/**
 * Fetches the file of one stored message: `get_attachment_link` (spec: a link valid 15 minutes),
 * then the bytes. The link itself is the credential, so the API key only goes along when the
 * link points at the API's own origin; a link on another host (a storage bucket) is fetched
 * without it, so the key never leaves for a third party. Resolves with a reason rather than
 * throwing: a missing file must not cost the caller its event.
 */
export async function downloadAttachment(
	context: IAllExecuteFunctions,
	client: MessagingClient,
	storedMessageId: string,
	timeoutMs: number,
): Promise<DownloadResult> {
	let link: AttachmentLink;
	try {
		({ data: link } = await client.callTool<AttachmentLink>('get_attachment_link', { message_id: storedMessageId }));
	} catch (error) {
		return { ok: false, reason: (error as Error).message };
	}
	const url = optionalText(link?.url);
	if (!url || !URL.canParse(url)) return { ok: false, reason: 'get_attachment_link returned no usable download link' };

	const credentials = await context.getCredentials<{ baseUrl?: string }>(CREDENTIAL_TYPE);
	const request: IHttpRequestOptions = { method: 'GET', url, encoding: 'arraybuffer', timeout: timeoutMs };
	try {
		const body: unknown = sameOrigin(url, trimBaseUrl(String(credentials.baseUrl ?? '')))
			? await context.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_TYPE, request)
			: await context.helpers.httpRequest(request);
		const data = Buffer.isBuffer(body) ? body : Buffer.from(body as ArrayBuffer);
		return { ok: true, file: { data, fileName: optionalText(link.file_name), mimeType: optionalText(link.mime_type) } };
	} catch (error) {
		return { ok: false, reason: `the download link failed: ${(error as Error).message}` };
	}
}
