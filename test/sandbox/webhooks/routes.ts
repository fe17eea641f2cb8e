import { SandboxApiError } from '../sandboxError';
import type { DeliveryEngine } from './deliveryEngine';
import { parseEndpointInput } from './endpointInput';
import { endpointView, notFound, type EndpointStore } from './endpointStore';
import type { DeliveryRecord, Endpoint, HandleRequest, HandleResponse } from './types';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function deliveryView(delivery: DeliveryRecord): Record<string, unknown> {
	return {
		id: delivery.id,
		event_id: delivery.eventId,
		event_type: delivery.eventType,
		status: delivery.status,
		attempts: delivery.attempts,
		last_status_code: delivery.lastStatusCode,
		last_error: delivery.lastError,
		next_attempt_at: iso(delivery.nextAttemptAt),
		payload_available: delivery.payload !== null,
		created_at: iso(delivery.createdAt),
	};
}

/** Actions without input still take a POST with an empty JSON object (spec: General rules). */
function expectEmpty(body: unknown): void {
	if (body === undefined || body === null) return;
	if (typeof body !== 'object' || Array.isArray(body)) {
		throw new SandboxApiError(400, 'invalid_input', 'request body must be a JSON object');
	}
	const [unknown] = Object.keys(body);
	if (unknown !== undefined) {
		throw new SandboxApiError(400, 'invalid_input', `${unknown}: unknown property '${unknown}'`, {
			field: unknown,
		});
	}
}

export interface RouteContext {
	store: EndpointStore;
	engine: DeliveryEngine;
	strictUrls: boolean;
	/** Queues the creation-time webhook.test event for one endpoint. */
	sendTestEvent(endpoint: Endpoint): void;
}

/** REST paths under /api/v1/webhooks (the spec leaves all but POST to us; see docs/assumptions.md). */
export function route(ctx: RouteContext, request: HandleRequest): HandleResponse {
	const { store } = ctx;
	const { accountId, body } = request;
	const method = request.method.toUpperCase();
	const parts = request.subpath.split('?')[0].split('/').filter(Boolean);
	const key = `${method} ${shape(parts)}`;

	if (key === 'GET /') return ok({ webhooks: store.list(accountId).map((e) => endpointView(e)) });
	if (key === 'POST /') {
		const input = parseEndpointInput(body, 'create', ctx.strictUrls);
		const endpoint = store.create(accountId, {
			url: input.url as string,
			eventTypes: input.eventTypes ?? [],
		});
		ctx.sendTestEvent(endpoint);
		return ok(endpointView(endpoint, true));
	}
	const action = endpointActions[key];
	if (!action)
		throw new SandboxApiError(
			404,
			'not_found',
			`no route ${method} /api/v1/webhooks${request.subpath}`,
		);
	if (method === 'POST') expectEmpty(body);
	return ok(action({ ctx, endpoint: store.get(accountId, parts[0]), parts, body }));
}

const ok = (payload: unknown): HandleResponse => ({ status: 200, body: payload });

interface ActionInput {
	ctx: RouteContext;
	endpoint: Endpoint;
	parts: string[];
	body: unknown;
}

const endpointActions: Record<string, (input: ActionInput) => unknown> = {
	'GET /:id': ({ endpoint }) => endpointView(endpoint),
	'PATCH /:id': ({ ctx, endpoint, body }) => {
		ctx.store.patch(endpoint, parseEndpointInput(body, 'patch', ctx.strictUrls));
		return endpointView(endpoint);
	},
	'DELETE /:id': ({ ctx, endpoint }) => {
		ctx.engine.retire(endpoint, 'deleted');
		return { id: endpoint.id, deleted: true };
	},
	'POST /:id/pause': ({ endpoint }) => {
		if (endpoint.status === 'disabled') {
			throw new SandboxApiError(
				422,
				'tool_error',
				'endpoint is disabled; resume it to re-enable it',
			);
		}
		endpoint.status = 'paused';
		return endpointView(endpoint);
	},
	'POST /:id/resume': ({ ctx, endpoint }) => {
		ctx.engine.resume(endpoint);
		return endpointView(endpoint);
	},
	'POST /:id/rotate-secret': ({ ctx, endpoint }) => {
		ctx.store.rotate(endpoint);
		return {
			id: endpoint.id,
			secret: endpoint.secret,
			previous_secret_expires_at: iso(endpoint.previousSecretExpiresAt),
		};
	},
	// Newest first, as REST listings of deliveries usually are.
	'GET /:id/deliveries': ({ ctx, endpoint }) => ({
		deliveries: ctx.engine
			.list((d) => d.endpointId === endpoint.id)
			.reverse()
			.map(deliveryView),
	}),
	'POST /:id/deliveries/:id/resend': ({ ctx, endpoint, parts }) => {
		const [delivery] = ctx.engine.list((d) => d.id === parts[2] && d.endpointId === endpoint.id);
		if (!delivery) throw notFound('delivery', parts[2]);
		ctx.engine.resend(delivery, endpoint);
		return { delivery_id: delivery.id, status: 'queued' };
	},
};

/** `/we_1/deliveries/whd_2/resend` -> `/:id/deliveries/:id/resend`: ids sit in the even slots. */
function shape(parts: string[]): string {
	return `/${parts.map((part, index) => (index % 2 === 0 ? ':id' : part)).join('/')}`;
}
