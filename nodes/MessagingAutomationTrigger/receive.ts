import type { INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

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
import { DeliveryReply, type RawResponse } from './deliveryReply';
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
 * service. A run's delivery is left unanswered unless it went back with its burst still open at
 * the deadline.
 */
async function answeredTurn(
	context: IWebhookFunctions,
	envelope: EventEnvelope,
	settings: TriggerSettings,
	delivery: DeliveryContext,
): Promise<Turn> {
	const turn = await readTurn(context, envelope, settings.turn, delivery);
	if (!turn.run && turn.handBack) delivery.reply.handBack();
	else if (!turn.run)
		delivery.reply.received(turn.answered ? { received: true, answered: true } : undefined);
	return turn;
}

/**
 * Verify over the raw bytes first; only a verified body is parsed. Failures get 401 (never 410,
 * which would disable the endpoint) and start nothing.
 */
export async function receiveDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const arrivedAt = Date.now();
	const request = context.getRequestObject() as unknown as RawRequest;
	const reply = new DeliveryReply(context.getResponseObject() as unknown as RawResponse);
	// n8n reads the body for the content types it parses; anything else is still unread here.
	if (!request.rawBody && typeof request.readRawBody === 'function') await request.readRawBody();
	const settings = readSettings(context);

	const verdict = verify(request, signingSecrets(context, settings));
	if (!verdict.ok) {
		context.logger.warn(
			`Messaging Automation Trigger: delivery rejected with 401 (${verdict.reason})`,
		);
		reply.answer(401, { error: 'invalid_signature', reason: verdict.reason });
		return reply.result();
	}

	const envelope = parseBody(request.rawBody as Buffer);
	if (!envelope) {
		reply.answer(400, { error: 'invalid_payload', reason: 'signed body is not an event envelope' });
		return reply.result();
	}
	const verdictOfFilters = filterEvent(envelope, settings.filters);
	if (!verdictOfFilters.pass) {
		reply.received({ received: true, ignored: verdictOfFilters.reason });
		return reply.result();
	}
	const state = new TriggerState(context.getWorkflowStaticData('node'));
	const scope = scopeOf(context);
	if (
		settings.deduplicate &&
		isDuplicateEvent(scope, state, envelope.id, settings.dedupeWindow, Date.now())
	) {
		reply.received({ received: true, duplicate: true });
		return reply.result();
	}
	if (settings.deduplicate)
		reply.onHandBack(() =>
			forgetEvent(scope, new TriggerState(context.getWorkflowStaticData('node')), envelope.id),
		);

	const delivery = deliveryTimes(scope, envelope, arrivedAt, verdict.timestamp * 1000);
	const turn = await answeredTurn(context, envelope, settings, { ...delivery, reply });
	if (!turn.run) return reply.result();
	return reply.result(
		await handOver(context, envelope, settings, reply, {
			turn,
			waitedMs: Date.now() - delivery.sentLocallyAt,
			retried: delivery.retried,
		}),
	);
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
): Omit<DeliveryContext, 'reply'> {
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
 * The run's workflow data for n8n, which answers the delivery once it recorded the run
 * (deliveryReply.ts). Recording takes seconds on a loaded n8n and a download may take longer than
 * the service waits, so a delivery short of time is answered here first.
 */
async function handOver(
	context: IWebhookFunctions,
	envelope: EventEnvelope,
	settings: TriggerSettings,
	reply: DeliveryReply,
	run: {
		turn: Extract<Turn, { run: true }>;
		waitedMs: number;
		retried: boolean;
	},
): Promise<INodeExecutionData[][]> {
	const item: INodeExecutionData = { json: turnItemJson(envelope, run.turn) };
	const answeredFirst =
		(run.waitedMs > LEAVE_TO_N8N_WITHIN_MS && !run.retried) ||
		(settings.downloadAttachments && hasAttachment(envelope, item));
	if (answeredFirst) reply.received();
	if (settings.downloadAttachments)
		await withAttachments(context, envelope, item, settings.binaryPropertyName);
	return withCarrier(
		takeoverWorkflowData(item, settings.turn.takeover !== undefined, run.turn.takeover),
	);
}
