import { SandboxApiError } from '../sandboxError';
import { DeliveryEngine } from './deliveryEngine';
import { EndpointStore } from './endpointStore';
import { Poster } from './post';
import { route } from './routes';
import {
	EVENT_TYPES,
	LIMITS,
	type AttemptRecord,
	type DeliveryRecord,
	type EmittedEvent,
	type Endpoint,
	type EventType,
	type HandleRequest,
	type HandleResponse,
	type WebhookServiceOptions,
} from './types';

export type {
	AttemptRecord,
	DeliveryRecord,
	EmittedEvent,
	Endpoint,
	EventType,
	WebhookServiceOptions,
} from './types';
export type { WebhookFaults } from './faults';
export { EVENT_TYPES, LIMITS } from './types';

export type WebhookService = ReturnType<typeof createWebhookService>;

const TEST_EVENT_MESSAGE = 'Test event queued when this endpoint was created.';

/**
 * Webhook endpoints and signed event delivery for one sandbox. The API server routes
 * `/api/v1/webhooks*` to `handle` after auth, scope and rate limits; the sandbox's state
 * calls `emit` for every event of a saved chat or connection change.
 */
export function createWebhookService(options: WebhookServiceOptions) {
	const {
		clock,
		random = Math.random,
		fetchTimeoutMs = LIMITS.requestTimeoutMs,
		strictUrls = false,
		requestsInFlight = LIMITS.requestsInFlight,
	} = options;
	const store = new EndpointStore(clock);
	const engine = new DeliveryEngine(
		clock,
		store,
		new Poster(fetchTimeoutMs),
		random,
		requestsInFlight,
	);
	const ctx = {
		store,
		engine,
		strictUrls,
		sendTestEvent: (endpoint: Endpoint) => {
			engine.emit(endpoint.accountId, 'webhook.test', { message: TEST_EVENT_MESSAGE }, [endpoint]);
		},
	};

	return {
		/** Async so a future rule needing I/O keeps the server's contract; errors are SandboxApiError. */
		async handle(request: HandleRequest): Promise<HandleResponse> {
			return route(ctx, request);
		},

		emit(accountId: string, type: string, data: Record<string, unknown>): EmittedEvent {
			if (!(EVENT_TYPES as readonly string[]).includes(type)) {
				throw new SandboxApiError(400, 'invalid_input', `unknown event type '${type}'`, {
					field: 'type',
				});
			}
			return engine.emit(accountId, type as EventType, data);
		},

		/** Every endpoint ever created, deleted ones included, with their secrets (tests only). */
		endpoints(): Endpoint[] {
			return store.all();
		},

		/** Deliveries still within metadata retention, each with its attempt log. */
		deliveries(): DeliveryRecord[] {
			return engine.list();
		},

		/** Every attempt, all endpoints, in the order their outcomes arrived. */
		attempts(): AttemptRecord[] {
			return engine.attempts();
		},

		faults: engine.faults,

		/** Fault: disables the account's live endpoints (or the one `endpointId`) for `reason`. */
		disable(reason: 'gone' | 'consecutive_failures' = 'gone', endpointId?: string): Endpoint[] {
			const chosen = store.all().filter((endpoint) => !endpointId || endpoint.id === endpointId);
			return engine.disable(chosen, reason);
		},

		stop(): void {
			engine.stop();
		},
	};
}
