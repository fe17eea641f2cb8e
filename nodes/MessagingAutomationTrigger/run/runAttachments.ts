import type { IBinaryData, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { downloadStoredAttachment } from '../../shared/attachments/fetchAttachment';
import type { MessagingClient } from '../../shared/client';
import type { EventMessage } from '../../shared/webhooks/events';
import { isCaughtUp } from './caughtUp';
import { createNodeClient } from '../../shared/transport/nodeClient';

const DOWNLOAD_TIMEOUT_MS = 20_000;

type AttachmentResult = { binary: IBinaryData } | { error: string };

/** The file of one message, or why there is none to have; undefined when it has no attachment. */
async function attachmentOf(
	context: IExecuteFunctions,
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
	try {
		return { binary: await context.helpers.prepareBinaryData(data, fileName, mimeType) };
	} catch (error) {
		// The run is recorded and its delivery answered: nothing would send the message again, so it
		// goes on without its file rather than not at all.
		const reason = `n8n could not store the file (${error instanceof Error ? error.message : String(error)}); fetch it later with get_attachment_link`;
		context.logger.warn(
			`Messaging Automation Trigger: attachment of message ${String(message.id)} not stored: ${reason}`,
		);
		return { error: reason };
	}
}

/** The messages of a run's item: a grouped turn's `messages`, else its event's message. */
function messagesOf(item: INodeExecutionData): EventMessage[] | undefined {
	if (Array.isArray(item.json.messages)) return item.json.messages as EventMessage[];
	const message = (item.json.data as { message?: EventMessage } | undefined)?.message;
	return message ? [message] : undefined;
}

/**
 * Downloads the files of one item's messages into binary data: the first into the chosen field,
 * later ones of a grouped turn into `<field>_1`, `<field>_2`, …; each message of a turn names its
 * field (`binary_property`) or says why it has none (`attachment_download`).
 */
async function withAttachments(
	context: IExecuteFunctions,
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
	let files = 0;
	for (const [index, message] of (messagesOf(item) ?? []).entries()) {
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

/*
 * Files are downloaded in the run's first step, after n8n recorded the run and the run claim
 * passed its items on (runClaim.ts): the delivery is answered by n8n once the run is recorded,
 * however long a download takes (a run n8n could not record goes back to the service's retry,
 * never lost), a copy of a recorded run downloads nothing, and a narrowed run only its own
 * messages' files. A caught-up burst's files are not downloaded (get_attachment_link fetches them).
 */

/** With Download Attachments on, the files of every item the run passes on. */
export async function withRunFiles(
	context: IExecuteFunctions,
	outputs: INodeExecutionData[][],
): Promise<INodeExecutionData[][]> {
	const options = context.getNodeParameter('options', 0, {}) as {
		downloadAttachments?: boolean;
		binaryPropertyName?: string;
	};
	if (options.downloadAttachments !== true) return outputs;
	for (const item of outputs.flat())
		if (!isCaughtUp(item))
			await withAttachments(context, item, String(options.binaryPropertyName || 'data'));
	return outputs;
}
