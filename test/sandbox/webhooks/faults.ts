/** What the delivery engine must do with one newly emitted event. */
export interface FaultPlan {
	duplicate: boolean;
	hold: boolean;
	/** Held event ids to let go now, in the order they must be delivered. */
	release: string[];
}

/**
 * Webhook faults of the control API: deliver the next N events twice, or out of order.
 * "Out of order" holds the next N events back and releases them newest first once the N-th
 * has been emitted (or when the faults are cleared), which reverses their order for certain.
 */
export class WebhookFaults {
	private duplicates = 0;
	private toReorder = 0;
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

	/** Cancels pending faults; events already held are delivered (newest first). */
	clear(): void {
		this.duplicates = 0;
		this.toReorder = 0;
		this.releaseHeld();
	}

	pending(): { duplicate: number; reorder: number; held: number } {
		return { duplicate: this.duplicates, reorder: this.toReorder, held: this.held.length };
	}

	/** Consumes the faults that apply to the event being emitted. */
	planFor(eventId: string): FaultPlan {
		const duplicate = this.duplicates > 0;
		if (duplicate) this.duplicates -= 1;
		if (this.toReorder === 0) return { duplicate, hold: false, release: [] };
		this.toReorder -= 1;
		this.held.push(eventId);
		return { duplicate, hold: true, release: this.toReorder === 0 ? this.takeHeld() : [] };
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
