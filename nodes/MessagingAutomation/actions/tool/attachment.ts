import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, INodeExecutionData } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../../shared/transport/httpRequestTransport';

/*
 * get_attachment_link answers with a link valid for 15 minutes; with Download File the node
 * fetches it at once into a binary property. The API key goes only to the service's own
 * address: a link to another host (a storage service) is fetched without it.
 */

const URL_FIELDS = ['url', 'download_url', 'downloadUrl', 'link'];

function linkOf(json: IDataObject): string | undefined {
	const name = URL_FIELDS.find((field) => typeof json[field] === 'string' && json[field] !== '');
	return name ? (json[name] as string) : undefined;
}

function fileNameOf(json: IDataObject, disposition: unknown, url: string): string {
	if (typeof json.file_name === 'string' && json.file_name !== '') return json.file_name;
	const fromHeader = typeof disposition === 'string' ? /filename="?([^";]+)"?/i.exec(disposition)?.[1] : undefined;
	return fromHeader ?? decodeURIComponent(new URL(url).pathname.split('/').pop() || 'attachment');
}

async function isServiceAddress(context: IExecuteFunctions, url: string): Promise<boolean> {
	const credentials = await context.getCredentials<{ baseUrl?: string }>(CREDENTIAL_TYPE);
	return new URL(url).origin === new URL(String(credentials.baseUrl ?? '')).origin;
}

export async function downloadAttachment(
	context: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
): Promise<INodeExecutionData> {
	if (!context.getNodeParameter('download', itemIndex, false)) return item;
	const url = linkOf(item.json);
	if (!url) return item;
	const property = context.getNodeParameter('downloadPropertyName', itemIndex, 'data') as string;
	const request: IHttpRequestOptions = { method: 'GET', url, encoding: 'arraybuffer', returnFullResponse: true, json: false };
	const response = (await isServiceAddress(context, url))
		? await context.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_TYPE, request)
		: await context.helpers.httpRequest(request);
	const headers = (response.headers ?? {}) as IDataObject;
	const mimeType = typeof item.json.mime_type === 'string' ? item.json.mime_type : (headers['content-type'] as string | undefined);
	const binary = await context.helpers.prepareBinaryData(
		Buffer.from(response.body as ArrayBuffer),
		fileNameOf(item.json, headers['content-disposition'], url),
		mimeType,
	);
	return { ...item, binary: { ...item.binary, [property]: binary } };
}
