import { withDefaults } from './defaults';

/**
 * Proactive pacing inside one execution, so a long run never meets a 429 but still goes as fast
 * as the service's sliding 60-second windows allow: calls burst up to the budget, then each waits
 * exactly until the oldest call in the window leaves it.
 */

/** `read` and `write` per API key; `qr:<number>` for sends from one personal number. */
export type PaceBucket = 'read' | 'write' | `qr:${string}`;

export interface PacerBudgets {
	/** Read calls per window (API: 600 per minute per key). */
	read: number;
	/** Write calls per window (API: 120 per minute per key). */
	write: number;
	/** Sends per window from one QR number (API: 5 per minute per number). */
	qrSend: number;
	/** Window length; shorter in tests where the sandbox's clock runs faster. */
	windowMs: number;
}

export const DEFAULT_BUDGETS: PacerBudgets = { read: 600, write: 120, qrSend: 5, windowMs: 60_000 };

export interface PacerOptions {
	budgets?: Partial<PacerBudgets>;
	now: () => number;
	sleep: (ms: number) => Promise<void>;
	/**
	 * Extra wait past the exact moment a slot frees, against timers firing a millisecond early.
	 * Defaults to a thousandth of the window (60 ms per minute), at least 5 ms.
	 */
	marginMs?: number;
}

/** Marks the call finished; its slot then counts from that moment, as the server's does at the latest. */
export type ReleasePace = () => void;

interface Slot {
	at: number;
}

export class Pacer {
	readonly budgets: PacerBudgets;
	private readonly marginMs: number;
	private readonly slots = new Map<PaceBucket, Slot[]>();

	constructor(private readonly options: PacerOptions) {
		this.budgets = withDefaults(DEFAULT_BUDGETS, options.budgets);
		this.marginMs = options.marginMs ?? Math.max(5, this.budgets.windowMs / 1000);
	}

	/** At least one call per window, whatever was configured. */
	budgetOf(bucket: PaceBucket): number {
		const budget =
			bucket === 'read' || bucket === 'write' ? this.budgets[bucket] : this.budgets.qrSend;
		return Math.max(1, Math.floor(budget));
	}

	/** Waits until every bucket has room, then takes one slot in each. */
	async acquire(buckets: readonly PaceBucket[]): Promise<ReleasePace> {
		for (;;) {
			const now = this.options.now();
			const waitMs = Math.max(0, ...buckets.map((bucket) => this.waitFor(bucket, now)));
			if (waitMs === 0) return this.take(buckets, now);
			await this.options.sleep(waitMs);
		}
	}

	/** How long until `bucket` has a free slot (0 when it has one now). */
	waitFor(bucket: PaceBucket, now: number): number {
		const budget = this.budgetOf(bucket);
		const inWindow = this.prune(bucket, now);
		if (inWindow.length < budget) return 0;
		const times = inWindow.map((slot) => slot.at).sort((a, b) => a - b);
		const freesAt = times[inWindow.length - budget] + this.budgets.windowMs;
		return Math.max(0, freesAt - now) + this.marginMs;
	}

	private take(buckets: readonly PaceBucket[], now: number): ReleasePace {
		const slot: Slot = { at: now };
		for (const bucket of new Set(buckets)) {
			const list = this.slots.get(bucket) ?? [];
			list.push(slot);
			this.slots.set(bucket, list);
		}
		return () => {
			slot.at = Math.max(slot.at, this.options.now());
		};
	}

	private prune(bucket: PaceBucket, now: number): Slot[] {
		const kept = (this.slots.get(bucket) ?? []).filter(
			(slot) => slot.at + this.budgets.windowMs > now,
		);
		this.slots.set(bucket, kept);
		return kept;
	}
}
