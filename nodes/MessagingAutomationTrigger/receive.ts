import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { eventMessage, parseEnvelope, type EventEnvelope } from '../shared/webhooks/events';
import {
	verifySignature,
	type DeliveryHeaders,
	type VerificationResult,
} from '../shared/webhooks/verifySignature';
import { forgetEvent, isDuplicateEvent } from './dedupe';
import { filterEvent } from './eventFilter';
import { turnItemJson } from './output';
import { hasAttachment, withAttachments } from './runAttachments';
import { withCarrier } from './runClaim';
import { triggerScope } from './scope';
import { readSettings, type TriggerSettings } from './settings';
import { TriggerState } from './state';
import { takeoverWorkflowData } from './takeoverOutput';
import { readTurn, type DeliveryContext, type Turn } from './turn';
import { isRetried, LEAVE_TO_N8N_WITHIN_MS } from '../shared/conversation/deliveryTiming';
import { ServiceClock } from './serviceClock';

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

/**
 * Answers the delivery here, when nothing runs or a run cannot wait for n8n's own answer, and
 * returns `noWebhookResponse`. n8n saves static data written by the handler (the dedupe window)
 * when the response callback fires, which it does with either answer.
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

/**
 * This delivery's trigger scope, named by the URL as the activation hooks name it. n8n 1.x has no
 * resource URL: its production deliveries (mode `webhook`) take the node's production URL, so a
 * deactivation or a save releases what they hold; its test deliveries fall back to the mode.
 */
function scopeOf(context: IWebhookFunctions): string {
	const url =
		typeof context.getWebhookResourceUrl === 'function'
			? context.getWebhookResourceUrl('default')
			: context.getMode() === 'webhook'
				? context.getNodeWebhookUrl('default')
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

/**
 * The delivery's turn (turn.ts). A turn that starts nothing is answered here: 200 (saying so when
 * its messages answered Send and Wait questions), or 503 when it hands the delivery back to the
 * service, whose copy then must not count as seen. A run's delivery
 * is left unanswered unless it went back with its burst still open at the deadline.
 */
async function answeredTurn(
	context: IWebhookFunctions,
	envelope: EventEnvelope,
	settings: TriggerSettings,
	response: RawResponse,
	delivery: Omit<DeliveryContext, 'answer' | 'handBack'>,
): Promise<{ turn: Turn; answered: boolean }> {
	let answered = false;
	const answerOnce = (status: number, body: IDataObject) => {
		if (answered) return;
		answered = true;
		answer(response, status, body);
	};
	const handBack = () => {
		// Once: a delivery that went back is settled later, when a copy of it may be held already.
		if (answered) return false;
		if (settings.deduplicate)
			forgetEvent(
				delivery.scope,
				new TriggerState(context.getWorkflowStaticData('node')),
				envelope.id,
			);
		answerOnce(503, { received: false, reason: 'not settled in time; send again' });
		return true;
	};
	const turn = await readTurn(context, envelope, settings.turn, {
		...delivery,
		answer: () => answerOnce(200, { received: true }),
		handBack,
	});
	if (!turn.run && turn.handBack) handBack();
	else if (!turn.run)
		answerOnce(200, turn.answered ? { received: true, answered: true } : { received: true });
	return { turn, answered };
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

	const delivery = deliveryTimes(scope, envelope, arrivedAt, verdict.timestamp * 1000);
	const { turn, answered } = await answeredTurn(context, envelope, settings, response, delivery);
	if (!turn.run) return { noWebhookResponse: true };
	return await handOver(context, envelope, settings, response, {
		turn,
		answered,
		waitedMs: Date.now() - delivery.sentLocallyAt,
		retried: delivery.retried,
	});
}

/**
 * What the delivery's times say: when the service sent it on this process's clock (taught by it
 * too), and whether it is a retry. A retried delivery's run is always left for n8n to answer once
 * recorded: a second stop is likeliest while retries are settled, and an answer that comes too
 * late costs only a retry whose copy passes nothing on.
 */
function deliveryTimes(
	scope: string,
	envelope: EventEnvelope,
	arrivedAt: number,
	sentAt: number,
): Omit<DeliveryContext, 'answer' | 'handBack'> {
	const written = Date.parse(eventMessage(envelope)?.timestamp ?? '');
	const writtenAt = Number.isNaN(written) ? undefined : written;
	const clock = new ServiceClock(scope);
	const times = { arrivedAt, writtenAt, sentAt };
	clock.observe(times);
	return {
		scope,
		clock,
		sentAt,
		sentLocallyAt: clock.sentLocally(times),
		retried: isRetried(sentAt, writtenAt),
	};
}

/**
 * The run's workflow data for n8n. n8n answers the delivery (200) once it recorded the run (n8n
 * 2.x; 1.x answers as the run starts): a stop before that leaves it to the service's retry, and
 * the burst runs then. Recording takes seconds on a loaded n8n and a download may take longer than
 * the service waits, so a delivery short of time is answered here first.
 */
async function handOver(
	context: IWebhookFunctions,
	envelope: EventEnvelope,
	settings: TriggerSettings,
	response: RawResponse,
	run: {
		turn: Extract<Turn, { run: true }>;
		answered: boolean;
		waitedMs: number;
		retried: boolean;
	},
): Promise<IWebhookResponseData> {
	const item: INodeExecutionData = { json: turnItemJson(envelope, run.turn) };
	const answeredFirst =
		(run.waitedMs > LEAVE_TO_N8N_WITHIN_MS && !run.retried) ||
		(settings.downloadAttachments && hasAttachment(envelope, item));
	if (answeredFirst && !run.answered) answer(response, 200, { received: true });
	if (settings.downloadAttachments)
		await withAttachments(context, envelope, item, settings.binaryPropertyName);
	const workflowData = withCarrier(
		takeoverWorkflowData(item, settings.turn.takeover !== undefined, run.turn.takeover),
	);
	if (run.answered || answeredFirst) return { noWebhookResponse: true, workflowData };
	return { webhookResponse: { received: true }, workflowData };
}
