import type { Settlement } from './settlement';

/*
 * One desk's carried deliveries (conversationDesk.ts): messages a read shows carried by a later
 * one of their burst. Each is answered 2xx only once a run holding its message is recorded: a run
 * a delivery of the desk started, as n8n's answer to that delivery says (deliveryReply.ts). The
 * run claim (runClaim.ts) stays the one record of what ran; this only waits on n8n's answer.
 */

/** What a carried delivery needs: its settlement. */
interface Waiting {
	settle: (outcome: Settlement) => void;
}

/** A run a delivery of the desk started: its messages, and whether n8n recorded it. */
interface Start {
	ids: ReadonlySet<string>;
	recorded: Promise<boolean>;
}

export class CarriedDeliveries<Entry extends Waiting> {
	private readonly entries = new Map<string, Entry>();
	private readonly starts: Start[] = [];

	/** `onSettled`: called after each carried delivery settles. */
	constructor(private readonly onSettled: () => void) {}

	get size(): number {
		return this.entries.size;
	}

	get(id: string): Entry | undefined {
		return this.entries.get(id);
	}

	ids(): string[] {
		return [...this.entries.keys()];
	}

	values(): Entry[] {
		return [...this.entries.values()];
	}

	/** Whether a run started here holds `id`. */
	holds(id: string): boolean {
		return this.starts.some((start) => start.ids.has(id));
	}

	/** `id` is carried: answered once a run holding it is recorded. */
	add(id: string, entry: Entry): void {
		this.entries.set(id, entry);
		for (const start of this.starts) if (start.ids.has(id)) this.awaitRun(id, start);
	}

	/** A delivery of the desk started the run of `ids`; `recorded`: whether n8n recorded it. */
	started(ids: ReadonlySet<string>, recorded: Promise<boolean>): void {
		const start = { ids, recorded };
		this.starts.push(start);
		for (const id of this.entries.keys()) if (ids.has(id)) this.awaitRun(id, start);
	}

	settle(id: string, outcome: Settlement): void {
		const entry = this.entries.get(id);
		if (!entry) return;
		this.entries.delete(id);
		entry.settle(outcome);
		this.onSettled();
	}

	private awaitRun(id: string, start: Start): void {
		void start.recorded.then((recorded) => {
			if (recorded) this.settle(id, { kind: 'none' });
		});
	}
}
