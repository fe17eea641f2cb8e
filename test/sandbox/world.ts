import { SandboxClock } from './clock';
import type { DispatchDeps } from './dispatch';
import { Faults } from './faults';
import { IdempotencyStore } from './idempotency';
import { createIds, type Ids } from './ids';
import { Limits } from './limits';
import { seedState, type Persona } from './seed';
import { SandboxState } from './state';
import { createWebhookService, type WebhookService } from './webhooks';

export interface WorldOptions {
	apiKey?: string;
	clock?: SandboxClock;
	strictUrls?: boolean;
	seed?: number;
	/** Real ms the webhook poster waits for a receiver (spec: 10 s). */
	webhookTimeoutMs?: number;
}

/**
 * Everything one sandbox run holds. `reset()` swaps in fresh state, counters and webhooks
 * in place, so the server and handles keep pointing at the same object and keys stay valid.
 */
export class World implements DispatchDeps {
	readonly clock: SandboxClock;
	readonly faults = new Faults();
	state!: SandboxState;
	limits!: Limits;
	idempotency!: IdempotencyStore;
	webhooks!: WebhookService;
	keys!: Record<Persona, string>;
	private ids!: Ids;
	private url = '';

	constructor(private readonly options: WorldOptions) {
		this.clock = options.clock ?? new SandboxClock();
		this.build(options.apiKey);
	}

	get events(): WebhookService {
		return this.webhooks;
	}

	baseUrl = (): string => this.url;

	setUrl(url: string): void {
		this.url = url;
	}

	reset(): void {
		this.webhooks.stop();
		this.faults.clear();
		this.build(undefined, this.keys);
	}

	stop(): void {
		this.webhooks.stop();
	}

	private build(apiKey: string | undefined, keep?: Record<Persona, string>): void {
		this.ids = createIds(this.options.seed);
		this.state = new SandboxState(this.ids, this.clock);
		this.keys = seedState(this.state, keep ?? (apiKey ? { owner: apiKey } : {}));
		this.limits = new Limits(this.clock);
		this.idempotency = new IdempotencyStore();
		this.webhooks = createWebhookService({
			clock: this.clock,
			random: this.ids.random,
			strictUrls: this.options.strictUrls,
			fetchTimeoutMs: this.options.webhookTimeoutMs,
		});
	}
}
