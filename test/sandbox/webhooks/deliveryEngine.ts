import { randomBytes } from 'node:crypto';
import type { SandboxClock } from '../clock';
import { SandboxApiError } from '../sandboxError';
import { ClockTimer } from './clockTimer';
import type { EndpointStore } from './endpointStore';
import { serializeEnvelope } from './envelope';
import { WebhookFaults } from './faults';
import type { PostOutcome, Poster } from './post';
import { retryDelayMs } from './retrySchedule';
import { activeSecrets, signatureHeaders } from './signing';
import {
	LIMITS,
	type AttemptRecord,
	type DeliveryRecord,
	type EmittedEvent,
	type Endpoint,
	type EventType,
} from './types';

/** A fault's attempt (faults.ts): as if the receiver never answered. */
const EXHAUSTED: PostOutcome = {
	statusCode: null,
	error: 'no answer (sandbox fault: exhaust)',
	responseExcerpt: null,
};

/** One request waiting to be sent. A delivery has at most one, plus a fault-injected duplicate. */
interface Job {
	deliveryId: string;
	dueAt: number;
	/** Tie-break among jobs due at the same time: emission order, unless faults reorder it. */
	order: number;
	duplicate: boolean;
	held: boolean;
}

/**
 * Queues, sends and retries deliveries on the sandbox clock, oldest due first. An endpoint gets up
 * to `requestsInFlight` requests at once (the spec says order is not guaranteed and does not
 * say how many; Standard Webhooks senders deliver concurrently): a receiver that answers one
 * delivery slowly does not hold back the next. Pause or delete stops future requests; those in
 * flight may finish.
 */
export class DeliveryEngine {
	readonly faults = new WebhookFaults((eventIds) => this.release(eventIds));
	private readonly deliveries = new Map<string, DeliveryRecord>();
	/** Every attempt in the order outcomes arrived, across endpoints. */
	private attemptLog: AttemptRecord[] = [];
	private readonly duplicatePending = new Set<string>();
	/** Deliveries a fault makes fail at every attempt until their retries run out. */
	private readonly exhausting = new Set<string>();
	private jobs: Job[] = [];
	/** Requests in flight per endpoint. */
	private readonly busy = new Map<string, number>();
	private readonly timer: ClockTimer;
	private nextOrder = 0;
	private stopped = false;

	constructor(
		private readonly clock: SandboxClock,
		private readonly store: EndpointStore,
		private readonly poster: Poster,
		private readonly random: () => number,
		private readonly requestsInFlight: number = LIMITS.requestsInFlight,
	) {
		this.timer = new ClockTimer(clock, () => this.pump());
	}

	/** Queues one event for `targets`, or for every subscribed endpoint of the account. */
	emit(
		accountId: string,
		type: EventType,
		data: Record<string, unknown>,
		targets?: Endpoint[],
	): EmittedEvent {
		this.prune();
		const now = this.clock.now();
		const facts = {
			id: `evt_${randomBytes(12).toString('hex')}`,
			type,
			createdAt: now,
			accountId,
			data,
		};
		const recipients = (targets ?? this.store.subscribers(accountId, type)).map((endpoint) => ({
			endpoint,
			payload: serializeEnvelope(facts, endpoint.apiVersion),
		}));
		const plan = this.faults.planFor(facts.id, type);
		// The message stays saved; its event is never queued (spec: Delivery 6).
		if (plan.lose) return { id: facts.id, deliveryIds: [] };
		const deliveryIds = recipients.map(({ endpoint, payload }) => {
			const delivery: DeliveryRecord = {
				id: `whd_${randomBytes(12).toString('hex')}`,
				endpointId: endpoint.id,
				accountId,
				eventId: facts.id,
				eventType: type,
				status: 'queued',
				attempts: 0,
				lastStatusCode: null,
				lastError: null,
				nextAttemptAt: now,
				createdAt: now,
				payload,
				attemptLog: [],
			};
			this.deliveries.set(delivery.id, delivery);
			if (plan.duplicate) this.duplicatePending.add(delivery.id);
			if (plan.exhaust) this.exhausting.add(delivery.id);
			this.jobs.push({
				deliveryId: delivery.id,
				dueAt: now,
				order: this.nextOrder++,
				duplicate: false,
				held: plan.hold,
			});
			return delivery.id;
		});
		if (plan.release.length > 0) this.release(plan.release);
		this.pump();
		return { id: facts.id, deliveryIds };
	}

	/** A manual resend: one more attempt now, same event id and body, while the payload is kept. */
	resend(delivery: DeliveryRecord, endpoint: Endpoint): void {
		if (delivery.payload === null) {
			throw new SandboxApiError(
				422,
				'tool_error',
				'payload no longer kept (payloads are kept 7 days); cannot resend',
			);
		}
		if (endpoint.status === 'disabled') {
			throw new SandboxApiError(
				422,
				'tool_error',
				'endpoint is disabled; resume it before resending',
			);
		}
		const now = this.clock.now();
		const pending = this.pendingJob(delivery.id);
		if (pending) pending.dueAt = now;
		else
			this.jobs.push({
				deliveryId: delivery.id,
				dueAt: now,
				order: this.nextOrder++,
				duplicate: false,
				held: false,
			});
		delivery.status = 'queued';
		delivery.nextAttemptAt = now;
		this.pump();
	}

	/** Pausing keeps queued deliveries (they go out on resume); only the sending stops. */
	resume(endpoint: Endpoint): void {
		endpoint.status = 'active';
		endpoint.disabledReason = null;
		endpoint.consecutiveFailures = 0;
		endpoint.failingSince = null;
		this.pump();
	}

	/** Disabled and deleted endpoints drop their queue: those deliveries end as failed. */
	retire(
		endpoint: Endpoint,
		status: 'disabled' | 'deleted',
		reason: Endpoint['disabledReason'] = null,
	): void {
		endpoint.status = status;
		endpoint.disabledReason = reason;
		this.jobs = this.jobs.filter((job) => {
			const delivery = this.deliveries.get(job.deliveryId);
			if (delivery?.endpointId !== endpoint.id) return true;
			if (!job.duplicate && delivery.status === 'queued')
				this.markFailed(delivery, delivery.lastError ?? `endpoint_${status}`);
			return false;
		});
	}

	/**
	 * A fault: every active or paused endpoint (or the one `endpointId`) disabled now, as the
	 * service does on a 410 or after 100 failures over three days; its queued deliveries fail.
	 */
	disable(endpoints: Endpoint[], reason: NonNullable<Endpoint['disabledReason']>): Endpoint[] {
		const live = endpoints.filter(
			(endpoint) => endpoint.status === 'active' || endpoint.status === 'paused',
		);
		for (const endpoint of live) this.retire(endpoint, 'disabled', reason);
		return live;
	}

	list(filter: (delivery: DeliveryRecord) => boolean = () => true): DeliveryRecord[] {
		this.prune();
		return [...this.deliveries.values()].filter(filter);
	}

	attempts(): AttemptRecord[] {
		this.prune();
		return [...this.attemptLog];
	}

	stop(): void {
		this.stopped = true;
		this.timer.stop();
		this.jobs = [];
		this.poster.abortAll();
	}

	private release(eventIds: string[]): void {
		const now = this.clock.now();
		const released = eventIds.flatMap((eventId) =>
			this.jobs.filter(
				(job) => job.held && this.deliveries.get(job.deliveryId)?.eventId === eventId,
			),
		);
		const orders = released.map((job) => job.order).sort((a, b) => a - b);
		released.forEach((job, index) =>
			Object.assign(job, { held: false, dueAt: now, order: orders[index] }),
		);
		this.pump();
	}

	/** Starts every request that may go now and sets the timer for the next due one. */
	private pump(): void {
		if (this.stopped) return;
		this.prune();
		const now = this.clock.now();
		let wake: number | null = null;
		for (const job of [...this.jobs].sort((a, b) => a.dueAt - b.dueAt || a.order - b.order)) {
			const delivery = this.deliveries.get(job.deliveryId) as DeliveryRecord;
			const endpoint = this.store.lookup(delivery.endpointId) as Endpoint;
			if (
				job.held ||
				endpoint.status !== 'active' ||
				(this.busy.get(endpoint.id) ?? 0) >= this.requestsInFlight
			)
				continue;
			if (job.dueAt > now) {
				wake = Math.min(wake ?? job.dueAt, job.dueAt);
				continue;
			}
			void this.attempt(job, delivery, endpoint);
		}
		this.timer.wakeAt(wake);
	}

	private async attempt(job: Job, delivery: DeliveryRecord, endpoint: Endpoint): Promise<void> {
		this.jobs = this.jobs.filter((other) => other !== job);
		this.busy.set(endpoint.id, (this.busy.get(endpoint.id) ?? 0) + 1);
		const at = this.clock.now();
		const payload = delivery.payload as string;
		if (!job.duplicate) delivery.attempts += 1;
		const headers = {
			'content-type': 'application/json',
			'user-agent': `MessagingAutomation-Webhooks/${endpoint.apiVersion}`,
			...signatureHeaders(activeSecrets(endpoint, at), delivery.eventId, at, payload),
		};
		const body = Buffer.from(payload, 'utf8');
		const url = endpoint.url;
		// Never settled in the same tick: pump() is still walking its list of jobs.
		const outcome: PostOutcome = await (this.exhausting.has(delivery.id)
			? Promise.resolve(EXHAUSTED)
			: this.poster.post(url, headers, body));
		if (this.stopped) return;
		this.busy.set(endpoint.id, (this.busy.get(endpoint.id) ?? 1) - 1);
		const { statusCode, error, responseExcerpt } = outcome;
		const record: AttemptRecord = {
			deliveryId: delivery.id,
			endpointId: endpoint.id,
			eventId: delivery.eventId,
			attempt: delivery.attempts,
			duplicate: job.duplicate,
			at,
			completedAt: this.clock.now(),
			url,
			statusCode,
			error,
			headers,
			body,
			responseExcerpt,
		};
		delivery.attemptLog.push(record);
		this.attemptLog.push(record);
		this.recordOnEndpoint(endpoint, outcome);
		if (!job.duplicate) this.settle(job, delivery, endpoint, outcome);
		this.pump();
	}

	/** Endpoint health counts every request, duplicates included (spec: 410 on "any attempt"). */
	private recordOnEndpoint(endpoint: Endpoint, outcome: PostOutcome): void {
		if (outcome.error === null) {
			endpoint.consecutiveFailures = 0;
			endpoint.failingSince = null;
			return;
		}
		endpoint.consecutiveFailures += 1;
		endpoint.failingSince ??= this.clock.now();
		if (endpoint.status !== 'active' && endpoint.status !== 'paused') return;
		if (outcome.statusCode === 410) this.retire(endpoint, 'disabled', 'gone');
		else if (
			endpoint.consecutiveFailures >= LIMITS.disableAfterFailures &&
			this.clock.now() - endpoint.failingSince >= LIMITS.disableAfterFailingMs
		) {
			this.retire(endpoint, 'disabled', 'consecutive_failures');
		}
	}

	private settle(
		job: Job,
		delivery: DeliveryRecord,
		endpoint: Endpoint,
		outcome: PostOutcome,
	): void {
		delivery.lastStatusCode = outcome.statusCode;
		delivery.lastError = outcome.error;
		if (outcome.error === null) {
			delivery.status = 'delivered';
			delivery.nextAttemptAt = null;
			// The copy takes the original's place in line, so it goes out right after it.
			if (this.duplicatePending.delete(delivery.id)) this.jobs.push({ ...job, duplicate: true });
			return;
		}
		// A resend requested while this attempt was in flight already queued the next one.
		const resent = this.pendingJob(delivery.id);
		if (resent) {
			delivery.status = 'queued';
			delivery.nextAttemptAt = resent.dueAt;
			return;
		}
		const delay = retryDelayMs(delivery.attempts, this.random);
		// A request that was in flight when its endpoint went away ends here rather than retrying.
		const gone = endpoint.status === 'disabled' || endpoint.status === 'deleted';
		if (delay === null || gone) {
			this.markFailed(delivery, outcome.error);
			return;
		}
		delivery.status = 'queued';
		delivery.nextAttemptAt = this.clock.now() + delay;
		this.jobs.push({
			deliveryId: delivery.id,
			dueAt: delivery.nextAttemptAt,
			order: this.nextOrder++,
			duplicate: false,
			held: false,
		});
	}

	private pendingJob(deliveryId: string): Job | undefined {
		return this.jobs.find((job) => job.deliveryId === deliveryId && !job.duplicate);
	}

	private markFailed(delivery: DeliveryRecord, error: string): void {
		this.exhausting.delete(delivery.id);
		delivery.status = 'failed';
		delivery.lastError = error;
		delivery.nextAttemptAt = null;
		this.duplicatePending.delete(delivery.id);
	}

	/** Payloads (and response excerpts) go after 7 days, everything after 30 (spec: Delivery 5). */
	private prune(): void {
		const now = this.clock.now();
		for (const delivery of this.deliveries.values()) {
			const age = now - delivery.createdAt;
			if (age >= LIMITS.metadataRetentionMs) {
				this.deliveries.delete(delivery.id);
				this.duplicatePending.delete(delivery.id);
			} else if (age >= LIMITS.payloadRetentionMs && delivery.payload !== null) {
				delivery.payload = null;
				for (const record of delivery.attemptLog)
					Object.assign(record, { body: null, responseExcerpt: null });
				if (delivery.status === 'queued') this.markFailed(delivery, 'payload_expired');
			}
		}
		this.jobs = this.jobs.filter((job) => this.deliveries.get(job.deliveryId)?.payload != null);
		this.attemptLog = this.attemptLog.filter((record) => this.deliveries.has(record.deliveryId));
	}
}
