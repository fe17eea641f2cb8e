import type { SandboxClock } from '../clock';

/** The six event types of the spec's Events table; anything else is refused. */
export const EVENT_TYPES = [
	'message.received',
	'message.sent',
	'message.status',
	'connection.connected',
	'connection.disconnected',
	'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Endpoints stay on the payload version current when they were created (spec: Versioning). */
export const API_VERSION = '2026-10-01';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Every number here is quoted from the spec's Delivery, Signing and Limits sections, except one marked. */
export const LIMITS = {
	endpointsPerAccount: 10,
	payloadBytes: 256 * 1024,
	retryDelaysMs: [
		30 * SECOND,
		2 * MINUTE,
		10 * MINUTE,
		30 * MINUTE,
		HOUR,
		3 * HOUR,
		6 * HOUR,
		12 * HOUR,
	],
	jitter: 0.2,
	maxAttempts: 9,
	disableAfterFailures: 100,
	disableAfterFailingMs: 3 * DAY,
	rotationOverlapMs: DAY,
	payloadRetentionMs: 7 * DAY,
	metadataRetentionMs: 30 * DAY,
	requestTimeoutMs: 10 * SECOND,
	/** Not in the spec (see docs/assumptions.md): concurrent requests to one endpoint, by default. */
	requestsInFlight: 64,
} as const;

export type EndpointStatus = 'active' | 'paused' | 'disabled' | 'deleted';
export type DisabledReason = 'gone' | 'consecutive_failures';

export interface Endpoint {
	id: string;
	accountId: string;
	url: string;
	eventTypes: EventType[];
	status: EndpointStatus;
	disabledReason: DisabledReason | null;
	apiVersion: string;
	createdAt: number;
	secret: string;
	/** The secret before the last rotation, still signing until `previousSecretExpiresAt`. */
	previousSecret: string | null;
	previousSecretExpiresAt: number | null;
	consecutiveFailures: number;
	/** When the current run of failures began; null after a success. */
	failingSince: number | null;
}

export type DeliveryStatus = 'queued' | 'delivered' | 'failed';

export interface AttemptRecord {
	deliveryId: string;
	endpointId: string;
	eventId: string;
	/** 1-based count of this delivery's attempts; a fault-injected duplicate repeats the last number. */
	attempt: number;
	duplicate: boolean;
	/** Sandbox time the request was sent, and when its outcome was known (retries count from there). */
	at: number;
	completedAt: number;
	url: string;
	statusCode: number | null;
	/** `timeout`, `redirect_not_followed`, `http_<code>` or a socket error code; null on 2xx. */
	error: string | null;
	headers: Record<string, string>;
	/** Raw request body bytes; null once the payload retention has passed. */
	body: Buffer | null;
	responseExcerpt: string | null;
}

export interface DeliveryRecord {
	id: string;
	endpointId: string;
	accountId: string;
	eventId: string;
	eventType: EventType;
	status: DeliveryStatus;
	attempts: number;
	lastStatusCode: number | null;
	lastError: string | null;
	nextAttemptAt: number | null;
	createdAt: number;
	/** The serialized envelope; null once the payload retention has passed. */
	payload: string | null;
	attemptLog: AttemptRecord[];
}

export interface WebhookServiceOptions {
	clock: SandboxClock;
	/** Drives retry jitter; inject a seeded one for reproducible schedules. */
	random?: () => number;
	/** Real milliseconds, not sandbox time: network waits do not speed up with the clock. */
	fetchTimeoutMs?: number;
	/** Enforce the spec's "public HTTPS" strictly (no loopback http). */
	strictUrls?: boolean;
	/** Requests one endpoint may have in flight at once; 1 sends strictly one after another. */
	requestsInFlight?: number;
}

export interface HandleRequest {
	method: string;
	/** The part of the path after `/api/v1/webhooks`, e.g. `` or `/we_x/pause`. */
	subpath: string;
	body: unknown;
	accountId: string;
}

export interface HandleResponse {
	status: number;
	body: unknown;
}

export interface EmittedEvent {
	id: string;
	deliveryIds: string[];
}
