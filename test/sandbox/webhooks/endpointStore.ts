import { randomBytes } from 'node:crypto';
import type { SandboxClock } from '../clock';
import { SandboxApiError } from '../sandboxError';
import type { EndpointInput } from './endpointInput';
import { newSecret } from './signing';
import { API_VERSION, LIMITS, type Endpoint, type EventType } from './types';

export function notFound(what: string, id: string): SandboxApiError {
	return new SandboxApiError(404, 'not_found', `${what} '${id}' not found`, { field: 'id' });
}

/** Endpoint records per account; deleted ones are kept (for tests) but invisible to the API. */
export class EndpointStore {
	private readonly byId = new Map<string, Endpoint>();

	constructor(private readonly clock: SandboxClock) {}

	create(accountId: string, input: Required<EndpointInput>): Endpoint {
		const live = this.list(accountId).length;
		if (live >= LIMITS.endpointsPerAccount) {
			throw new SandboxApiError(
				422,
				'tool_error',
				`limit reached: at most ${LIMITS.endpointsPerAccount} webhook endpoints per account; delete one first`,
			);
		}
		const endpoint: Endpoint = {
			id: `we_${randomBytes(12).toString('hex')}`,
			accountId,
			url: input.url,
			eventTypes: input.eventTypes,
			status: 'active',
			disabledReason: null,
			apiVersion: API_VERSION,
			createdAt: this.clock.now(),
			secret: newSecret(),
			previousSecret: null,
			previousSecretExpiresAt: null,
			consecutiveFailures: 0,
			failingSince: null,
		};
		this.byId.set(endpoint.id, endpoint);
		return endpoint;
	}

	/** Endpoints the API still shows: every status but deleted, in creation order. */
	list(accountId: string): Endpoint[] {
		return [...this.byId.values()].filter(
			(e) => e.accountId === accountId && e.status !== 'deleted',
		);
	}

	/** Another account's endpoint answers exactly like a missing one, so ids leak nothing. */
	get(accountId: string, id: string): Endpoint {
		const endpoint = this.byId.get(id);
		if (!endpoint || endpoint.accountId !== accountId || endpoint.status === 'deleted')
			throw notFound('webhook endpoint', id);
		return endpoint;
	}

	lookup(id: string): Endpoint | undefined {
		return this.byId.get(id);
	}

	all(): Endpoint[] {
		return [...this.byId.values()];
	}

	subscribers(accountId: string, type: EventType): Endpoint[] {
		return this.list(accountId).filter(
			(e) => e.status !== 'disabled' && e.eventTypes.includes(type),
		);
	}

	patch(endpoint: Endpoint, input: EndpointInput): void {
		if (input.url !== undefined) endpoint.url = input.url;
		if (input.eventTypes !== undefined) endpoint.eventTypes = input.eventTypes;
	}

	/** The old secret keeps signing for 24 hours so receivers can switch without losing events. */
	rotate(endpoint: Endpoint): void {
		endpoint.previousSecret = endpoint.secret;
		endpoint.previousSecretExpiresAt = this.clock.now() + LIMITS.rotationOverlapMs;
		endpoint.secret = newSecret();
	}
}

/** The API's view of an endpoint; the secret only where the caller must learn it. */
export function endpointView(endpoint: Endpoint, withSecret = false): Record<string, unknown> {
	return {
		id: endpoint.id,
		url: endpoint.url,
		event_types: endpoint.eventTypes,
		status: endpoint.status,
		disabled_reason: endpoint.disabledReason,
		...(withSecret ? { secret: endpoint.secret } : {}),
		api_version: endpoint.apiVersion,
		created_at: new Date(endpoint.createdAt).toISOString(),
	};
}
