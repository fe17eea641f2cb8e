import type { IBinaryData, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { downloadStoredAttachment } from '../../shared/attachments/fetchAttachment';
import type { MessagingClient } from '../../shared/client';
import { eventMessage, type EventEnvelope, type EventMessage } from '../../shared/webhooks/events';
import { createNodeClient } from '../../shared/transport/nodeClient';

const DOWNLOAD_TIMEOUT_MS = 20_000;

type AttachmentResult = { binary: IBinaryData } | { error: string };

/** The file of one message, or why there is none to have; undefined when it has no attachment. */
async function attachmentOf(
	context: IWebhookFunctions,
	client: () => Promise<MessagingClient>,
	message: EventMessage,
): Promise<AttachmentResult | undefined> {
	if (!message.has_attachment && !message.attachment) return undefined;
	if (message.channel === 'business')
		return { error: 'Business file downloads are not available through the API' };
	if (
		message.attachment?.download_available !== true ||
		typeof message.stored_message_id !== 'string'
	) {
		return {
			error:
				'The file is not saved yet (download_available is false); fetch it later with get_attachment_link',
		};
	}
	const result = await downloadStoredAttachment(
		context,
		await client(),
		message.stored_message_id,
		DOWNLOAD_TIMEOUT_MS,
	);
	if (!result.ok) {
		context.logger.warn(
			`Messaging Automation Trigger: attachment of message ${String(message.id)} not downloaded: ${result.reason}`,
		);
		return { error: result.reason };
	}
	const { data, fileName, mimeType } = result.file;
	return { binary: await context.helpers.prepareBinaryData(data, fileName, mimeType) };
}

/**
 * Downloads the files of the run's messages into binary data: the first into the chosen field,
 * later ones of a grouped turn into `<field>_1`, `<field>_2`, …; each message of a turn names its
 * field (`binary_property`) or says why it has none (`attachment_download`).
 */
export async function withAttachments(
	context: IWebhookFunctions,
	envelope: EventEnvelope,
	item: INodeExecutionData,
	propertyName: string,
): Promise<void> {
	let client: Promise<MessagingClient> | undefined;
	const lazyClient = async () =>
		await (client ??= createNodeClient(context, {
			timeoutMs: DOWNLOAD_TIMEOUT_MS,
			retry: { maxAttempts: 2 },
		}));
	const grouped = Array.isArray(item.json.messages)
		? (item.json.messages as EventMessage[])
		: undefined;
	const messages = grouped ?? [eventMessage(envelope)].filter((message) => message !== undefined);
	let files = 0;
	for (const [index, message] of messages.entries()) {
		const result = await attachmentOf(context, lazyClient, message);
		if (!result) continue;
		const field = files === 0 ? propertyName : `${propertyName}_${files}`;
		if ('binary' in result) {
			item.binary = { ...item.binary, [field]: result.binary };
			files++;
		}
		const note =
			'binary' in result
				? { binary_property: field }
				: { attachment_download: { error: result.error } };
		if (grouped) grouped[index] = { ...message, ...note };
		else if ('error' in result) item.json.attachment_download = { error: result.error };
	}
}

/** Whether the run's item holds a message whose file would be downloaded. */
export function hasAttachment(envelope: EventEnvelope, item: INodeExecutionData): boolean {
	const messages = Array.isArray(item.json.messages)
		? (item.json.messages as EventMessage[])
		: [eventMessage(envelope)];
	return messages.some((message) => message?.has_attachment || message?.attachment);
}
