import type { ServerResponse } from 'node:http';
import { findMessage } from '../inbox';
import { sendJson } from '../http';
import type { SandboxState } from '../state';
import { type ToolHandler, str, toolError } from './context';

/** Spec: download link lifetime 15 minutes. */
export const LINK_LIFETIME_MS = 15 * 60_000;

const getAttachmentLink: ToolHandler = (ctx) => {
	const id = str(ctx.input, 'message_id') ?? '';
	const message = findMessage(ctx.account, id);
	if (!message || !message.saved || !ctx.account.chats.has(message.conversationId)) {
		throw toolError(`No saved message ${id} is visible to this key.`);
	}
	if (message.channel === 'business') {
		throw toolError('Business file downloads are not available through get_attachment_link.');
	}
	if (!message.attachment) throw toolError(`Message ${id} has no attachment.`);
	if (!message.attachment.downloadAvailable) {
		throw toolError(
			`The file of message ${id} is not saved yet (download_available is false); try again later.`,
		);
	}
	const token = ctx.state.ids.hex(24);
	const expiresAt = ctx.state.clock.now() + LINK_LIFETIME_MS;
	ctx.state.links.set(token, {
		token,
		accountId: ctx.account.id,
		storedId: message.storedId,
		expiresAt,
	});
	return {
		message_id: message.storedId,
		url: `${ctx.baseUrl}/files/${token}`,
		expires_at: ctx.state.iso(expiresAt),
		file_name: message.attachment.fileName,
		mime_type: message.attachment.mimeType,
		size: message.attachment.size,
	};
};

export const attachmentHandlers: Record<string, ToolHandler> = {
	get_attachment_link: getAttachmentLink,
};

/** GET /files/<token>: the link itself is the credential, valid 15 minutes on the sandbox clock. */
export function serveAttachment(
	state: SandboxState,
	token: string,
	res: ServerResponse,
	headers: Record<string, string>,
): void {
	const link = state.links.get(token);
	if (!link)
		return sendJson(
			res,
			404,
			{ error: { code: 'not_found', message: 'Unknown download link.' } },
			headers,
		);
	if (state.clock.now() >= link.expiresAt) {
		return sendJson(
			res,
			410,
			{
				error: {
					code: 'link_expired',
					message: 'The download link expired; ask get_attachment_link for a new one.',
				},
			},
			headers,
		);
	}
	const message = findMessage(state.account(link.accountId), link.storedId);
	const attachment = message?.attachment;
	if (!attachment)
		return sendJson(
			res,
			404,
			{ error: { code: 'not_found', message: 'The file is no longer stored.' } },
			headers,
		);
	res.writeHead(200, {
		...headers,
		'Content-Type': attachment.mimeType,
		'Content-Length': String(attachment.content.length),
		'Content-Disposition': `attachment; filename="${attachment.fileName}"`,
	});
	res.end(attachment.content);
}
