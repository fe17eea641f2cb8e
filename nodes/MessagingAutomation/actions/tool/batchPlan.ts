import type { BatchSpec } from '../../../shared/catalogue/types';
import { isRecord } from '../../../shared/guards';

/*
 * Which items go in which call, worked out while the items are checked one by one. A plan keeps
 * item numbers, not the elements: for 100,000 recipients under a megabyte, plus a few megabytes
 * of duplicate look-up dropped once the batches are handed out, where holding every checked
 * element until the last call went out took tens. Elements are read again when their batch is
 * sent, unless reading them again could give something else (see keepElements).
 */

export interface Batch {
	shared: Record<string, unknown>;
	/** Items whose element this call carries, in input order. */
	items: number[];
	/** The elements themselves, when they are kept rather than read again. */
	elements?: unknown[];
	/** Items left out because an earlier item has the same element: answered by this call. */
	duplicateItems: number[];
}

/** Items that share the same fields (the same campaign, the same group) and their batches so far. */
interface Group {
	batches: Batch[];
	/** The batch each element went into, by its dedupe key. */
	seen: Map<string, Batch>;
}

function dedupeKey(element: unknown, spec: BatchSpec): string {
	const value = spec.dedupeBy && isRecord(element) ? element[spec.dedupeBy] : element;
	return typeof value === 'string' ? value.trim() : JSON.stringify(value);
}

export class BatchPlan {
	private readonly groups = new Map<string, Group>();
	private lastShared?: Record<string, unknown>;
	private lastGroup?: Group;

	/** `keepElements`: hold the checked elements instead of reading them again for the call. */
	constructor(
		private readonly spec: BatchSpec,
		private readonly keepElements: boolean,
	) {}

	add(itemIndex: number, shared: Record<string, unknown>, element: unknown): void {
		const group = this.groupOf(shared);
		const key = dedupeKey(element, this.spec);
		const earlier = group.seen.get(key);
		if (earlier) {
			earlier.duplicateItems.push(itemIndex);
			return;
		}
		let current = group.batches[group.batches.length - 1];
		if (!current || current.items.length >= this.spec.max) {
			current = {
				shared,
				items: [],
				duplicateItems: [],
				...(this.keepElements ? { elements: [] } : {}),
			};
			group.batches.push(current);
		}
		current.items.push(itemIndex);
		current.elements?.push(element);
		group.seen.set(key, current);
	}

	/** Every batch, grouped by shared fields in the order each group first appeared; ends the plan. */
	batches(): Batch[] {
		const batches = [...this.groups.values()].flatMap((group) => group.batches);
		// The duplicate look-up is done with: it need not live while the calls go out.
		this.groups.clear();
		this.lastShared = undefined;
		this.lastGroup = undefined;
		return batches;
	}

	private groupOf(shared: Record<string, unknown>): Group {
		// Shared fields that are the same for every item are one object: no key to build per item.
		if (shared === this.lastShared && this.lastGroup) return this.lastGroup;
		const key = JSON.stringify(shared);
		let group = this.groups.get(key);
		if (!group) {
			group = { batches: [], seen: new Map() };
			this.groups.set(key, group);
		}
		this.lastShared = shared;
		this.lastGroup = group;
		return group;
	}
}
