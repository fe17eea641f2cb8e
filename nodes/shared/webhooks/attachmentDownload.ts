import type { IAllExecuteFunctions } from 'n8n-workflow';

import type { MessagingClient } from '../client';
import { readServiceCredential } from '../transport/credential';
import { DownloadError, downloadLink } from '../transport/download';

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

/**
 * Fetches the file of one stored message: `get_attachment_link` (spec: a link valid 15 minutes),
 * then the bytes, through the same download rules as the action node (../transport/download: the
 * key only to the service's own origin, no credentials on redirects, no private addresses, a
 * deadline and a size cap). Resolves with a reason rather than throwing: a missing file must not
 * cost the caller its event.
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
	if (!url) return { ok: false, reason: 'get_attachment_link returned no usable download link' };
	try {
		const file = await downloadLink(context, url, { credential: await readServiceCredential(context), timeoutMs });
		return { ok: true, file: { data: file.data, fileName: optionalText(link.file_name), mimeType: optionalText(link.mime_type) } };
	} catch (error) {
		// DownloadError says why in safe words; anything else (no credential) is passed on as it reads.
		return { ok: false, reason: error instanceof DownloadError ? error.message : `the download failed: ${(error as Error).message}` };
	}
}
