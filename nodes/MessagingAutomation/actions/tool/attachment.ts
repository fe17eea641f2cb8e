import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { readServiceCredential } from '../../../shared/transport/credential';
import { DownloadError, downloadLink } from '../../../shared/transport/download';

/*
 * get_attachment_link answers with a link valid for 15 minutes; with Download File the node
 * fetches it at once into a binary property, within the node's time-out and the download size
 * cap. What may be fetched, and when the key goes along, is ../../../shared/transport/download's
 * decision, the same as the trigger's.
 */

const URL_FIELDS = ['url', 'download_url', 'downloadUrl', 'link'];

function linkOf(json: IDataObject): string | undefined {
	const name = URL_FIELDS.find((field) => typeof json[field] === 'string' && json[field] !== '');
	return name ? (json[name] as string) : undefined;
}

function lastSegment(url: string): string {
	const segment = new URL(url).pathname.split('/').pop() ?? '';
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

function fileNameOf(json: IDataObject, disposition: string | undefined, url: string): string {
	if (typeof json.file_name === 'string' && json.file_name !== '') return json.file_name;
	const fromHeader = disposition ? /filename="?([^";]+)"?/i.exec(disposition)?.[1] : undefined;
	return fromHeader ?? (lastSegment(url) || 'attachment');
}

export async function downloadAttachment(
	context: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
	timeoutMs: number,
): Promise<INodeExecutionData> {
	if (!context.getNodeParameter('download', itemIndex, false)) return item;
	const url = linkOf(item.json);
	if (!url) return item;
	const property = context.getNodeParameter('downloadPropertyName', itemIndex, 'data') as string;
	const credential = await readServiceCredential(context, itemIndex);
	const file = await downloadLink(context, url, { credential, timeoutMs }).catch((error: unknown) => {
		if (!(error instanceof DownloadError)) throw error;
		throw new NodeOperationError(context.getNode(), `The attachment was not downloaded: ${error.message}.`, {
			itemIndex,
			description: 'The link itself is in the output without Download File; a new link comes from Get Attachment Link.',
		});
	});
	const mimeType = typeof item.json.mime_type === 'string' ? item.json.mime_type : file.headers['content-type'];
	const binary = await context.helpers.prepareBinaryData(file.data, fileNameOf(item.json, file.headers['content-disposition'], file.url), mimeType);
	return { ...item, binary: { ...item.binary, [property]: binary } };
}
