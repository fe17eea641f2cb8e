import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { fetchAttachment, readAttachmentLink } from '../../../shared/attachments/fetchAttachment';
import { DownloadError } from '../../../shared/transport/download';

/*
 * A tool that declares downloadsLink (get_attachment_link) answers with a link valid for 15
 * minutes; with Download File the node fetches it at once into a binary property, within the
 * node's time-out and the download size cap, the same way as the trigger does.
 */
export async function downloadAttachment(
	context: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
	timeoutMs: number,
): Promise<INodeExecutionData> {
	if (!context.getNodeParameter('download', itemIndex, false)) return item;
	const link = readAttachmentLink(item.json);
	if (!link) return item;
	const property = context.getNodeParameter('downloadPropertyName', itemIndex, 'data') as string;
	const file = await fetchAttachment(context, link, { timeoutMs, itemIndex }).catch((error: unknown) => {
		if (!(error instanceof DownloadError)) throw error;
		throw new NodeOperationError(context.getNode(), `The attachment was not downloaded: ${error.message}.`, {
			itemIndex,
			description: 'The link itself is in the output without Download File; a new link comes from Get Attachment Link.',
		});
	});
	const binary = await context.helpers.prepareBinaryData(file.data, file.fileName, file.mimeType);
	return { ...item, binary: { ...item.binary, [property]: binary } };
}
