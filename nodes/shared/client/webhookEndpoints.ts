import type { ApiResult, RequestSpec } from './request';
import { generateIdempotencyKey } from './idempotency';

export const WEBHOOK_EVENT_TYPES = [
	'message.received',
	'message.sent',
	'message.status',
	'connection.connected',
	'connection.disconnected',
	'webhook.test',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface WebhookEndpoint {
	id: string;
	url: string;
	event_types: string[];
	status: string;
	/** Why the service disabled it (`gone` after a 410, `consecutive_failures`); not shown in the spec. */
	disabled_reason?: string | null;
	api_version?: string;
	created_at?: string;
	/** Only in the answers of create and rotate-secret. */
	secret?: string;
}

export interface WebhookDelivery {
	id: string;
	event_id: string;
	event_type: string;
	status: string;
	attempts: number;
	last_status_code: number | null;
	last_error?: string | null;
	next_attempt_at: string | null;
	created_at: string;
}

export interface WebhookEndpointInput {
	url: string;
	event_types: string[];
}

interface Requester {
	request<T>(spec: RequestSpec): Promise<ApiResult<T>>;
}

const BASE = '/api/v1/webhooks';

function endpointPath(id: string, ...rest: string[]): string {
	return [BASE, id, ...rest]
		.map((part, index) => (index === 0 ? part : encodeURIComponent(part)))
		.join('/');
}

/**
 * Webhook endpoint management (scope `messenger.webhooks:manage`). Changes count as write calls
 * and carry an `Idempotency-Key`, so a retried create after a time-out does not register twice
 * on a service that honours it.
 */
export class WebhookEndpoints {
	constructor(private readonly client: Requester) {}

	async create(
		input: WebhookEndpointInput,
		idempotencyKey?: string,
	): Promise<ApiResult<WebhookEndpoint>> {
		return await this.write<WebhookEndpoint>('POST', BASE, input, idempotencyKey);
	}

	async list(): Promise<ApiResult<{ webhooks: WebhookEndpoint[] }>> {
		return await this.client.request({ method: 'GET', path: BASE, pace: ['read'] });
	}

	async get(id: string): Promise<ApiResult<WebhookEndpoint>> {
		return await this.client.request({ method: 'GET', path: endpointPath(id), pace: ['read'] });
	}

	async update(
		id: string,
		changes: Partial<WebhookEndpointInput>,
	): Promise<ApiResult<WebhookEndpoint>> {
		return await this.write<WebhookEndpoint>('PATCH', endpointPath(id), changes);
	}

	async pause(id: string): Promise<ApiResult<WebhookEndpoint>> {
		return await this.write<WebhookEndpoint>('POST', endpointPath(id, 'pause'));
	}

	async resume(id: string): Promise<ApiResult<WebhookEndpoint>> {
		return await this.write<WebhookEndpoint>('POST', endpointPath(id, 'resume'));
	}

	async delete(id: string): Promise<ApiResult<{ id: string; deleted: boolean }>> {
		return await this.write('DELETE', endpointPath(id));
	}

	async rotateSecret(
		id: string,
	): Promise<ApiResult<{ id: string; secret: string; previous_secret_expires_at: string }>> {
		return await this.write('POST', endpointPath(id, 'rotate-secret'));
	}

	async listDeliveries(id: string): Promise<ApiResult<{ deliveries: WebhookDelivery[] }>> {
		return await this.client.request({
			method: 'GET',
			path: endpointPath(id, 'deliveries'),
			pace: ['read'],
		});
	}

	async resendDelivery(
		id: string,
		deliveryId: string,
	): Promise<ApiResult<{ delivery_id: string; status: string }>> {
		return await this.write('POST', endpointPath(id, 'deliveries', deliveryId, 'resend'));
	}

	private async write<T>(
		method: 'POST' | 'PATCH' | 'DELETE',
		path: string,
		body?: unknown,
		idempotencyKey = generateIdempotencyKey(),
	): Promise<ApiResult<T>> {
		return await this.client.request<T>({
			method,
			path,
			body: method === 'DELETE' ? undefined : (body ?? {}),
			headers: { 'Idempotency-Key': idempotencyKey },
			idempotencyKey,
			pace: ['write'],
		});
	}
}
