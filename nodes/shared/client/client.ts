import { finalWriteError, readResponse, type ErrorContext } from './answer';
import { withDefaults } from './defaults';
import { mayHaveActed } from './errorRules';
import { MessagingApiError } from './errors';
import type { PaceBucket, ReleasePace } from './pacer';
import { redactSecrets } from './redaction';
import { DEFAULT_RETRY_OPTIONS, retryDecision, type RetryOptions } from './retry';
import { type CallToolOptions, planToolCall } from './toolCall';
import { parseToolListing, type ToolListing } from './toolListing';
import type { ApiResult, RequestSpec } from './request';
import type { Transport, TransportRequest, TransportResponse } from './transport';
import { WebhookEndpoints } from './webhookEndpoints';

export type { ApiResult, RequestSpec } from './request';

export interface MeResponse {
	account: { id: string; name: string; plan: string };
	key: { name: string; scopes: string[]; owner: boolean };
	numbers: Array<{ channel: 'qr' | 'business'; phone: string; connected: boolean }>;
	ready: boolean;
}

/** Anything that paces calls; `Pacer` from ./pacer is the implementation. */
export interface PaceGate {
	acquire(buckets: readonly PaceBucket[]): Promise<ReleasePace>;
}

export interface AttemptInfo {
	attempt: number;
	method: TransportRequest['method'];
	path: string;
	idempotencyKey?: string;
}

export interface RetryInfo extends AttemptInfo {
	error: MessagingApiError;
	delayMs: number;
}

export interface MessagingClientOptions {
	transport: Transport;
	/** n8n-workflow's `sleep` inside nodes. */
	sleep: (ms: number) => Promise<void>;
	retry?: Partial<RetryOptions>;
	/** Per request. */
	timeoutMs?: number;
	/** For backoff jitter; Math.random by default. */
	random?: () => number;
	/** Consulted before every request, retries included. */
	pacer?: PaceGate;
	onAttempt?: (info: AttemptInfo) => void | Promise<void>;
	onRetry?: (info: RetryInfo) => void | Promise<void>;
	/** Values never to appear in error text, such as the API key. */
	secrets?: readonly string[];
}

export const DEFAULT_TIMEOUT_MS = 30_000;

function attemptInfo(spec: RequestSpec, attempt: number): AttemptInfo {
	return { attempt, method: spec.method, path: spec.path, idempotencyKey: spec.idempotencyKey };
}

export class MessagingClient {
	readonly webhooks: WebhookEndpoints;
	private readonly retry: RetryOptions;

	constructor(private readonly options: MessagingClientOptions) {
		this.retry = withDefaults(DEFAULT_RETRY_OPTIONS, options.retry);
		this.webhooks = new WebhookEndpoints(this);
	}

	async getMe(): Promise<ApiResult<MeResponse>> {
		return await this.request<MeResponse>({ method: 'GET', path: '/api/v1/me', pace: ['read'] });
	}

	/** The tools this key may use, whatever layout the service lists them in. */
	async listTools(): Promise<ApiResult<ToolListing[]>> {
		const result = await this.request<unknown>({
			method: 'GET',
			path: '/api/v1/tools',
			pace: ['read'],
		});
		return { ...result, data: parseToolListing(result.data) };
	}

	/** `POST /api/v1/tools/<name>`. Throws InputValidationError before sending a malformed key. */
	async callTool<T = Record<string, unknown>>(
		name: string,
		input?: Record<string, unknown>,
		options: CallToolOptions = {},
	): Promise<ApiResult<T>> {
		const plan = planToolCall(name, input, options);
		return await this.request<T>({
			method: 'POST',
			path: plan.path,
			body: plan.body,
			headers: plan.headers,
			idempotencyKey: plan.idempotencyKey,
			pace: plan.pace,
			timeoutMs: options.timeoutMs,
			tool: name,
			scope: plan.scope,
		});
	}

	/**
	 * The request loop: send, let ./answer decide what came back, and retry if and only if the
	 * retry policy says so, always with the same body and idempotency key. A write remembers
	 * whether any attempt may have acted, so its final error says so whatever the last answer was.
	 */
	async request<T>(spec: RequestSpec): Promise<ApiResult<T>> {
		const request: TransportRequest = {
			method: spec.method,
			path: spec.path,
			headers: spec.headers,
			body: spec.body,
			timeoutMs: spec.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		};
		const context: ErrorContext = {
			tool: spec.tool,
			scope: spec.scope,
			idempotencyKey: spec.idempotencyKey,
			secrets: this.options.secrets,
		};
		const isWrite = spec.pace.includes('write');
		let firstUncertain: MessagingApiError | undefined;
		for (let attempt = 1; ; attempt++) {
			const outcome = await this.attempt<T>(spec, request, context, attempt);
			if (outcome.ok) return outcome.result;
			const { error } = outcome;
			if (isWrite && !firstUncertain && mayHaveActed(error)) firstUncertain = error;
			const random = this.options.random ?? Math.random;
			const decision = retryDecision(error, attempt, this.retry, random);
			if (!decision.retry) {
				const final = isWrite ? finalWriteError(error, firstUncertain) : error;
				final.attempts = attempt;
				throw final;
			}
			await this.options.onRetry?.({
				...attemptInfo(spec, attempt),
				error,
				delayMs: decision.delayMs,
			});
			await this.options.sleep(decision.delayMs);
		}
	}

	/** One attempt, paced: the result, or the typed error the loop decides on. */
	private async attempt<T>(
		spec: RequestSpec,
		request: TransportRequest,
		context: ErrorContext,
		attempt: number,
	): Promise<{ ok: true; result: ApiResult<T> } | { ok: false; error: MessagingApiError }> {
		const { transport, pacer, onAttempt } = this.options;
		const release = pacer ? await pacer.acquire(spec.pace) : undefined;
		if (onAttempt) await onAttempt(attemptInfo(spec, attempt));
		let response: TransportResponse | undefined;
		let failure: unknown;
		try {
			response = await transport(request);
		} catch (thrown) {
			failure = thrown;
		}
		release?.();
		if (!response) {
			// Anything but the transport's own errors (a cancelled execution, missing credentials) is not ours to retry.
			if (!(failure instanceof MessagingApiError)) throw failure;
			failure.message = redactSecrets(failure.message, this.options.secrets);
			failure.idempotencyKey ??= spec.idempotencyKey;
			return { ok: false, error: failure };
		}
		const answer = readResponse(response, context, spec.method === 'GET');
		if (!answer.ok) return { ok: false, error: answer.error };
		const { headers, status } = response;
		const result: ApiResult<T> = {
			data: answer.data as T,
			requestId: headers['x-request-id'],
			status,
			attempts: attempt,
			replayed: headers['idempotent-replayed'] === 'true',
			idempotencyKey: spec.idempotencyKey,
			...(headers.date ? { date: headers.date } : {}),
		};
		return { ok: true, result };
	}
}
