import type {
	IBinaryData,
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { downloadStoredAttachment } from '../shared/attachments/fetchAttachment';
import type { MessagingClient } from '../shared/client';
import {
	eventMessage,
	parseEnvelope,
	type EventEnvelope,
	type EventMessage,
} from '../shared/webhooks/events';
import {
	verifySignature,
	type DeliveryHeaders,
	type VerificationResult,
} from '../shared/webhooks/verifySignature';
import { createNodeClient } from '../shared/transport/nodeClient';
import { passedAsAnswer } from './answerRoute';
import { forgetEvent, isDuplicateEvent } from './dedupe';
import { filterEvent } from './eventFilter';
import { turnItemJson } from './output';
import { triggerScope } from './scope';
import { readSettings, type TriggerSettings } from './settings';
import { TriggerState } from './state';
import { takeoverWorkflowData } from './takeoverOutput';
import { readTurn, type DeliveryContext, type Turn } from './turn';

/** What the handler reads from n8n's request: the bytes n8n kept (`rawBody`) and every header line. */
interface RawRequest {
	rawBody?: Buffer;
	rawHeaders?: string[];
	headers: Record<string, string | string[] | undefined>;
	readRawBody?: () => Promise<void>;
}

interface RawResponse {
	writeHead(status: number, headers: Record<string, string>): unknown;
	end(body: string): unknown;
}

const DOWNLOAD_TIMEOUT_MS = 20_000;

/**
 * Answers the delivery itself and returns `noWebhookResponse`. Two reasons: the answer goes when
 * the handler chooses, before any look-up or download (at once), or once a grouped delivery's
 * outcome is settled (see turn.ts); and n8n saves static data written here
 * (the dedupe window) when the response callback fires, which happens before the execution
 * starts only in this mode. Once the run begins, n8n re-wraps the same static data object and
 * the change flag is reset, so a later answer would lose the window.
 */
function answer(response: RawResponse, status: number, body: IDataObject): IWebhookResponseData {
	response.writeHead(status, { 'Content-Type': 'application/json' });
	response.end(JSON.stringify(body));
	return { noWebhookResponse: true };
}

/**
 * Secrets to verify with. Automatic mode: the endpoint stored for the URL being served
 * (`getWebhookResourceUrl` tells test from production); n8n versions without that method fall back
 * to every stored endpoint, which in practice is one, since test and production static data are
 * kept apart.
 */
function signingSecrets(context: IWebhookFunctions, settings: TriggerSettings): string[] {
	if (settings.registration === 'dashboard')
		return [String(context.getNodeParameter('signingSecret', '')).trim()];
	const state = new TriggerState(context.getWorkflowStaticData('node'));
	const url =
		typeof context.getWebhookResourceUrl === 'function'
			? context.getWebhookResourceUrl('default')
			: undefined;
	const own = url ? state.endpoint(url) : undefined;
	return own ? [own.secret] : state.endpoints().map((endpoint) => endpoint.secret);
}

/** This delivery's trigger scope; n8n versions without the resource URL fall back to the mode. */
function scopeOf(context: IWebhookFunctions): string {
	const url =
		typeof context.getWebhookResourceUrl === 'function'
			? context.getWebhookResourceUrl('default')
			: context.getMode();
	return triggerScope(context, url ?? '');
}

function verify(request: RawRequest, secrets: readonly string[]): VerificationResult {
	const attempt = (secret: string) =>
		verifySignature({
			body: request.rawBody as Buffer,
			headers: (request.rawHeaders ?? request.headers) as DeliveryHeaders,
			secret,
			now: Date.now(),
		});
	const first = attempt(secrets[0] ?? '');
	if (first.ok) return first;
	return (
		secrets
			.slice(1)
			.map(attempt)
			.find((result) => result.ok) ?? first
	);
}

function parseBody(body: Buffer): EventEnvelope | undefined {
	try {
		return parseEnvelope(JSON.parse(body.toString('utf8')));
	} catch {
		return undefined;
	}
}

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
async function withAttachments(
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

/**
 * The delivery's turn (turn.ts), answering it 200 once the turn allows, or 503 when it hands the
 * delivery back to the service.
 */
async function answeredTurn(
	context: IWebhookFunctions,
	envelope: EventEnvelope,
	settings: TriggerSettings,
	response: RawResponse,
	delivery: Omit<DeliveryContext, 'answer'>,
): Promise<Turn> {
	let answered = false;
	const turn = await readTurn(context, envelope, settings.turn, {
		...delivery,
		answer: () => {
			if (answered) return;
			answered = true;
			answer(response, 200, { received: true });
		},
	});
	if (!turn.run && turn.handBack && !answered)
		answer(response, 503, { received: false, reason: 'not settled in time; send again' });
	return turn;
}

/**
 * Verify over the raw bytes first; only a verified body is parsed. Failures get 401 (never 410,
 * which would disable the endpoint) and start nothing.
 */
export async function receiveDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const arrivedAt = Date.now();
	const request = context.getRequestObject() as unknown as RawRequest;
	const response = context.getResponseObject() as unknown as RawResponse;
	// n8n reads the body for the content types it parses; anything else is still unread here.
	if (!request.rawBody && typeof request.readRawBody === 'function') await request.readRawBody();
	const settings = readSettings(context);

	const verdict = verify(request, signingSecrets(context, settings));
	if (!verdict.ok) {
		context.logger.warn(
			`Messaging Automation Trigger: delivery rejected with 401 (${verdict.reason})`,
		);
		return answer(response, 401, { error: 'invalid_signature', reason: verdict.reason });
	}

	const envelope = parseBody(request.rawBody as Buffer);
	if (!envelope) {
		return answer(response, 400, {
			error: 'invalid_payload',
			reason: 'signed body is not an event envelope',
		});
	}
	const verdictOfFilters = filterEvent(envelope, settings.filters);
	if (!verdictOfFilters.pass) {
		return answer(response, 200, { received: true, ignored: verdictOfFilters.reason });
	}
	const state = new TriggerState(context.getWorkflowStaticData('node'));
	const scope = scopeOf(context);
	if (
		settings.deduplicate &&
		isDuplicateEvent(scope, state, envelope.id, settings.dedupeWindow, Date.now())
	) {
		return answer(response, 200, { received: true, duplicate: true });
	}

	if (settings.answersToSendAndWait && (await passedAsAnswer(context, envelope)))
		return answer(response, 200, { received: true, answered: true });

	const turn = await answeredTurn(context, envelope, settings, response, {
		scope,
		arrivedAt,
		sentAt: verdict.timestamp * 1000,
	});
	if (!turn.run) {
		// Handed back unsettled: the service sends it again, and that copy must not count as seen.
		if (turn.handBack && settings.deduplicate) forgetEvent(scope, state, envelope.id);
		return { noWebhookResponse: true };
	}
	const item: INodeExecutionData = { json: turnItemJson(envelope, turn) };
	if (settings.downloadAttachments)
		await withAttachments(context, envelope, item, settings.binaryPropertyName);
	const workflowData = takeoverWorkflowData(
		item,
		settings.turn.takeover !== undefined,
		turn.takeover,
	);
	return { noWebhookResponse: true, workflowData };
}
