import { vi } from 'vitest';
import { SandboxClock } from '../clock';
import { createWebhookService, type DeliveryRecord, type WebhookServiceOptions } from './index';
import { startReceiver, WAIT, type ReceivedRequest, type Responder } from './testReceiver';

export const ACCOUNT = 'acc_demo';

export interface CreatedEndpoint {
	id: string;
	url: string;
	event_types: string[];
	status: string;
	secret: string;
	api_version: string;
	created_at: string;
}

/** The parsed envelope of a received request. */
export function envelopeOf(
	request: ReceivedRequest,
): Record<string, unknown> & { id: string; type: string } {
	return JSON.parse(request.body.toString('utf8'));
}

/** Answers webhook.test with 200 so that only the events under test exercise failures. */
export function failingExceptTest(status: number | 'hang'): Responder {
	return (request) => (envelopeOf(request).type === 'webhook.test' ? 200 : status);
}

/**
 * A webhook service on a frozen sandbox clock (speed 0) plus a real loopback receiver: time moves
 * only when a test moves it, so every schedule is asserted in exact sandbox milliseconds.
 */
export async function setupWebhooks(
	options: { responder?: Responder; speed?: number } & Partial<
		Omit<WebhookServiceOptions, 'clock'>
	> = {},
) {
	const { responder, speed = 0, ...serviceOptions } = options;
	// Starts at the real time so the standardwebhooks verifier's 5-minute check passes.
	const clock = new SandboxClock({ start: Date.now(), speed });
	const service = createWebhookService({ clock, ...serviceOptions });
	const receiver = await startReceiver(responder);

	const api = async (method: string, subpath: string, body?: unknown, accountId = ACCOUNT) =>
		service.handle({ method, subpath, body, accountId });

	const createEndpoint = async (eventTypes: string[] = ['message.received'], url = receiver.url) =>
		(await api('POST', '', { url, event_types: eventTypes })).body as CreatedEndpoint;

	const delivery = (eventId: string): DeliveryRecord => {
		const found = service.deliveries().find((d) => d.eventId === eventId);
		if (!found) throw new Error(`no delivery for ${eventId}`);
		return found;
	};

	/** Polls (real time, briefly) until the event's delivery satisfies `done`. */
	const waitForDelivery = async (eventId: string, done: (d: DeliveryRecord) => boolean) =>
		vi.waitFor(() => {
			const current = delivery(eventId);
			if (!done(current))
				throw new Error(
					`delivery ${current.id} is ${current.status} after ${current.attempts} attempts`,
				);
			return current;
		}, WAIT);

	const emitText = (text = 'hello') =>
		service.emit(ACCOUNT, 'message.received', {
			message: { id: 'wamid.1', conversation_id: '4915112345678', text },
		});

	return {
		clock,
		service,
		receiver,
		api,
		createEndpoint,
		delivery,
		waitForDelivery,
		emitText,
		async close() {
			service.stop();
			await receiver.close();
		},
	};
}

export type WebhookHarness = Awaited<ReturnType<typeof setupWebhooks>>;
