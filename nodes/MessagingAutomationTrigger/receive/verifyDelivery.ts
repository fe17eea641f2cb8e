import type { IWebhookFunctions } from 'n8n-workflow';

import { parseEnvelope, type EventEnvelope } from '../../shared/webhooks/events';
import {
	verifySignature,
	type DeliveryHeaders,
	type VerificationResult,
} from '../../shared/webhooks/verifySignature';
import type { DeliveryReply } from './deliveryReply';
import type { TriggerSettings } from '../settings';
import { TriggerState } from '../state';

/** What the handler reads from n8n's request: the bytes n8n kept (`rawBody`) and every header line. */
interface RawRequest {
	rawBody?: Buffer;
	rawHeaders?: string[];
	headers: Record<string, string | string[] | undefined>;
	readRawBody?: () => Promise<void>;
}

/** A delivery whose signature holds: its bytes, and when the service signed it (ms, its clock). */
export interface SignedDelivery {
	body: Buffer;
	sentAt: number;
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

/**
 * The delivery's bytes once their signature holds, verified over the raw bytes before anything is
 * parsed. A failure is answered 401 (never 410, which would disable the endpoint) and starts nothing.
 */
export async function verifyDelivery(
	context: IWebhookFunctions,
	settings: TriggerSettings,
	reply: DeliveryReply,
): Promise<SignedDelivery | undefined> {
	const request = context.getRequestObject() as unknown as RawRequest;
	// n8n reads the body for the content types it parses; anything else is still unread here.
	if (!request.rawBody && typeof request.readRawBody === 'function') await request.readRawBody();
	const verdict = verify(request, signingSecrets(context, settings));
	if (verdict.ok) return { body: request.rawBody as Buffer, sentAt: verdict.timestamp * 1000 };
	context.logger.warn(
		`Messaging Automation Trigger: delivery rejected with 401 (${verdict.reason})`,
	);
	reply.answer(401, { error: 'invalid_signature', reason: verdict.reason });
	return undefined;
}

function parseBody(body: Buffer): EventEnvelope | undefined {
	try {
		return parseEnvelope(JSON.parse(body.toString('utf8')));
	} catch {
		return undefined;
	}
}

/** The signed body's event envelope; a body that is none is answered 400. */
export function parseDelivery(body: Buffer, reply: DeliveryReply): EventEnvelope | undefined {
	const envelope = parseBody(body);
	if (!envelope)
		reply.answer(400, { error: 'invalid_payload', reason: 'signed body is not an event envelope' });
	return envelope;
}
