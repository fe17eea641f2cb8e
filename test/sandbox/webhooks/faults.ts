/** What the delivery engine must do with one newly emitted event. */
export interface FaultPlan {
	duplicate: boolean;
	hold: boolean;
	/** Held event ids to let go now, in the order they must be delivered. */
	release: string[];
	/** Saved but never queued (spec, Delivery 6): no delivery is created. */
	lose: boolean;
	/** Every attempt fails until the nine are used (spec, Delivery 2): the delivery ends failed. */
	exhaust: boolean;
}

/** Events whose loss the spec allows: a message saved while its event is not queued. */
const LOSABLE = new Set(['message.received', 'message.sent']);

/**
 * Webhook faults of the control API: deliver the next N events twice, or out of order; lose the
 * next N message events (saved, never queued); let the next N events' deliveries run out of
 * retries. "Out of order" holds the next N events back and releases them newest first once the
 * N-th has been emitted (or when the faults are cleared), which reverses their order for certain.
 */
export class WebhookFaults {
	private duplicates = 0;
	private toReorder = 0;
	private toLose = 0;
	private toExhaust = 0;
	private held: string[] = [];

	constructor(private readonly onRelease: (eventIds: string[]) => void) {}

	/** Each of the next `count` events is sent once more right after its first success. */
	duplicateNext(count: number): void {
		this.duplicates = count;
	}

	/** The next `count` events are delivered in reverse order of emission. */
	reorderNext(count: number): void {
		this.toReorder = count;
	}

	/** The next `count` message events are never queued: their messages are saved all the same. */
	loseNext(count: number): void {
		this.toLose = count;
	}

	/** The next `count` events fail at every attempt (no answer) until their nine attempts are used. */
	exhaustNext(count: number): void {
		this.toExhaust = count;
	}

	/** Cancels pending faults; events already held are delivered (newest first). */
	clear(): void {
		this.duplicates = 0;
		this.toReorder = 0;
		this.toLose = 0;
		this.toExhaust = 0;
		this.releaseHeld();
	}

	pending(): { duplicate: number; reorder: number; held: number; lose: number; exhaust: number } {
		return {
			duplicate: this.duplicates,
			reorder: this.toReorder,
			held: this.held.length,
			lose: this.toLose,
			exhaust: this.toExhaust,
		};
	}

	/** Consumes the faults that apply to the event being emitted. */
	planFor(eventId: string, type: string): FaultPlan {
		const none = { duplicate: false, hold: false, release: [], exhaust: false };
		if (this.toLose > 0 && LOSABLE.has(type)) {
			this.toLose -= 1;
			return { ...none, lose: true };
		}
		const exhaust = this.toExhaust > 0;
		if (exhaust) this.toExhaust -= 1;
		const duplicate = this.duplicates > 0;
		if (duplicate) this.duplicates -= 1;
		if (this.toReorder === 0) return { ...none, duplicate, exhaust, lose: false };
		this.toReorder -= 1;
		this.held.push(eventId);
		return {
			duplicate,
			exhaust,
			lose: false,
			hold: true,
			release: this.toReorder === 0 ? this.takeHeld() : [],
		};
	}

	private releaseHeld(): void {
		if (this.held.length > 0) this.onRelease(this.takeHeld());
	}

	private takeHeld(): string[] {
		const newestFirst = this.held.reverse();
		this.held = [];
		return newestFirst;
	}
}
