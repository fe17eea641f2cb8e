import type { IAllExecuteFunctions } from 'n8n-workflow';

import type { MessagingClient } from '../client';
import { getAttachmentLinkTool } from '../catalogue/tools/get_attachment_link';
import { isRecord } from '../guards';
import { readServiceCredential } from '../transport/credential';
import { DownloadError, downloadLink } from '../transport/download';

/*
 * The one way both nodes turn a get_attachment_link answer (spec: a link valid 15 minutes) into a
 * file: the link read from the answer, then the bytes fetched through ../transport/download's rules
 * (the key only to the service's own origin, no credentials on redirects, no private addresses, a
 * deadline and a size cap).
 */

/** What an answer says about the file. */
export interface AttachmentLink {
	url: string;
	fileName?: string;
	mimeType?: string;
}

export interface AttachmentFile {
	data: Buffer;
	fileName: string;
	mimeType?: string;
}

/* The spec's field first, then the names link answers commonly use. */
const URL_FIELDS = ['url', 'download_url', 'downloadUrl', 'link'];

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The download link of an answer, or undefined when it holds no usable one. */
export function readAttachmentLink(answer: unknown): AttachmentLink | undefined {
	if (!isRecord(answer)) return undefined;
	const url = URL_FIELDS.map((field) => text(answer[field])).find((value) => value !== undefined);
	return url ? { url, fileName: text(answer.file_name), mimeType: text(answer.mime_type) } : undefined;
}

function lastSegment(url: string): string {
	const segment = new URL(url).pathname.split('/').pop() ?? '';
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

/** The file's name: from the answer, else the download's Content-Disposition, else the URL. */
function fileNameOf(link: AttachmentLink, disposition: string | undefined, url: string): string {
	if (link.fileName) return link.fileName;
	const fromHeader = disposition ? /filename="?([^";]+)"?/i.exec(disposition)?.[1] : undefined;
	return fromHeader ?? (lastSegment(url) || 'attachment');
}

/** Fetches the file behind `link`; a refused or failed download throws DownloadError (safe words). */
export async function fetchAttachment(
	context: IAllExecuteFunctions,
	link: AttachmentLink,
	options: { timeoutMs: number; itemIndex?: number },
): Promise<AttachmentFile> {
	const credential = await readServiceCredential(context, options.itemIndex);
	const file = await downloadLink(context, link.url, { credential, timeoutMs: options.timeoutMs });
	return {
		data: file.data,
		fileName: fileNameOf(link, file.headers['content-disposition'], file.url),
		mimeType: link.mimeType ?? file.headers['content-type'],
	};
}

export type DownloadResult = { ok: true; file: AttachmentFile } | { ok: false; reason: string };

/**
 * The file of one stored message, asked for by its id (the trigger's Download Attachments).
 * Resolves with a reason rather than throwing: a missing file must not cost the caller its event.
 */
export async function downloadStoredAttachment(
	context: IAllExecuteFunctions,
	client: MessagingClient,
	storedMessageId: string,
	timeoutMs: number,
): Promise<DownloadResult> {
	let answer: unknown;
	try {
		({ data: answer } = await client.callTool(getAttachmentLinkTool.name, { message_id: storedMessageId }));
	} catch (error) {
		return { ok: false, reason: (error as Error).message };
	}
	const link = readAttachmentLink(answer);
	if (!link) return { ok: false, reason: `${getAttachmentLinkTool.name} returned no usable download link` };
	try {
		return { ok: true, file: await fetchAttachment(context, link, { timeoutMs }) };
	} catch (error) {
		// DownloadError says why in safe words; anything else (no credential) is passed on as it reads.
		return { ok: false, reason: error instanceof DownloadError ? error.message : `the download failed: ${(error as Error).message}` };
	}
}
