/**
 * The sandbox's notion of time. Limits, link lifetimes and webhook retries all read it,
 * so tests can jump ahead (`advance`) or run time faster than the wall clock (`speed`).
 */
export class SandboxClock {
	private anchorReal = Date.now();
	private anchorVirtual: number;
	private factor: number;
	private readonly listeners = new Set<() => void>();

	constructor(options: { start?: number; speed?: number } = {}) {
		this.anchorVirtual = options.start ?? Date.now();
		this.factor = options.speed ?? 1;
	}

	now(): number {
		return this.anchorVirtual + (Date.now() - this.anchorReal) * this.factor;
	}

	get speed(): number {
		return this.factor;
	}

	/** Runs time `factor` times faster than the wall clock from now on. */
	setSpeed(factor: number): void {
		this.rebase(this.now());
		this.factor = factor;
		this.notify();
	}

	advance(ms: number): void {
		this.rebase(this.now() + ms);
		this.notify();
	}

	set(epochMs: number): void {
		this.rebase(epochMs);
		this.notify();
	}

	/** Real milliseconds until the virtual time `at`, for scheduling timers. */
	realDelayUntil(at: number): number {
		return Math.max(0, (at - this.now()) / this.factor);
	}

	/** Called after every jump or speed change so schedulers can re-arm their timers. */
	onChange(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	private rebase(virtual: number): void {
		this.anchorReal = Date.now();
		this.anchorVirtual = virtual;
	}

	private notify(): void {
		for (const listener of this.listeners) listener();
	}
}
