import { sleep } from 'n8n-workflow';

/*
 * One deadline for a whole exchange, body included: n8n's `timeout` and undici's own time-outs
 * only limit the wait between bytes (and undici's did not fire reliably below a second under
 * load), so a server that trickles its answer would otherwise hold a call for ever.
 *
 * A timer and an AbortSignal of its own cost a call more than the rest of the client together,
 * so exchanges whose deadlines fall in the same slot (a thousandth of the time-out, at least a
 * millisecond) share one signal and one timer, aborted at the slot's end: never before an
 * exchange's deadline, at most a slot after it. A signal carries a few exchanges at a time, so
 * it never collects more abort listeners than Node allows one target without a warning.
 */

export interface Deadline {
	/** Aborts at the deadline. */
	signal: AbortSignal;
	/** The exchange is over: its share of the signal may go to another one. */
	done(): void;
}

/**
 * A deadline from the clock. Its signal is made on first use: a client that can take a plain
 * listener instead (undici takes an EventEmitter-like signal) skips the EventTarget and its
 * listener bookkeeping, a measurable part of a loopback call.
 */
export interface ClockDeadline extends Deadline {
	readonly expired: boolean;
	/** Calls `listener` once at the deadline (at once if it has passed); returns its removal. */
	onExpiry(listener: () => void): () => void;
}

export interface DeadlineClockOptions {
	/** Monotonic milliseconds. */
	now: () => number;
	/** n8n-workflow's `sleep`: the only timer a node may use; a late abort after the exchange changes nothing. */
	sleep: (ms: number) => Promise<void>;
}

/** Exchanges in flight on one signal at most; HTTP clients add one or two abort listeners each. */
const SHARED_BY = 4;

class Slot {
	inFlight = 0;
	expired = false;
	private controller?: AbortController;
	private readonly listeners = new Set<() => void>();

	get signal(): AbortSignal {
		if (!this.controller) {
			this.controller = new AbortController();
			if (this.expired) this.controller.abort();
		}
		return this.controller.signal;
	}

	onExpiry(listener: () => void): () => void {
		if (this.expired) {
			listener();
			return () => {};
		}
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	expire(): void {
		this.expired = true;
		this.controller?.abort();
		const listeners = [...this.listeners];
		this.listeners.clear();
		// Each in its own microtask, as an EventTarget isolates its listeners: one that throws
		// cannot keep the others from running.
		for (const listener of listeners) queueMicrotask(listener);
	}
}

export class DeadlineClock {
	private readonly slots = new Map<number, Slot>();

	constructor(private readonly options: DeadlineClockOptions) {}

	/** A deadline `ms` from now. */
	start(ms: number): ClockDeadline {
		const now = this.options.now();
		const width = Math.max(1, ms / 1000);
		const end = Math.ceil((now + ms) / width) * width;
		let slot = this.slots.get(end);
		if (!slot || slot.inFlight >= SHARED_BY) slot = this.open(end, end - now);
		slot.inFlight++;
		const taken = slot;
		let finished = false;
		return {
			get signal() {
				return taken.signal;
			},
			get expired() {
				return taken.expired;
			},
			onExpiry: (listener) => taken.onExpiry(listener),
			done: () => {
				if (finished) return;
				finished = true;
				taken.inFlight--;
			},
		};
	}

	private open(end: number, inMs: number): Slot {
		const slot = new Slot();
		this.slots.set(end, slot);
		void this.options.sleep(inMs).then(() => {
			if (this.slots.get(end) === slot) this.slots.delete(end);
			slot.expire();
		});
		return slot;
	}
}

/** The clock every transport and download in this process shares. */
export const deadlines = new DeadlineClock({ now: () => performance.now(), sleep });
