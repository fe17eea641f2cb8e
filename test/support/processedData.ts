/**
 * n8n's processed-data store for the test engine. n8n keeps it in its database (the CLI's
 * DeduplicationHelper); this one keeps the same record per workflow and scope in memory, read and
 * rewritten whole across an await as n8n does, so claims made at once can overwrite each other
 * here as they would there. Only the 'entries' mode the trigger uses is kept.
 */
import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';
import { createHash } from 'node:crypto';

// n8n-core is loaded once per test worker, and the store installed with it is the first evaluation's,
// while this file is evaluated again for every test file: the records and the failures ahead live on
// the global object, so a later test file's failProcessedData reaches the installed store.
const SHARED = Symbol.for('messaging-automation.test.processedData');
const shared = ((globalThis as Record<symbol, unknown>)[SHARED] ??= {
	records: new Map<string, string[]>(),
	failuresAhead: 0,
	generation: 0,
	born: new WeakMap<object, number>(),
}) as {
	records: Map<string, string[]>;
	failuresAhead: number;
	/** How many times the records were cleared: each clear starts a new n8n's database. */
	generation: number;
	/** The generation each workflow object first reached the store in. */
	born: WeakMap<object, number>;
	/** The next claim another process's write at the same moment drops (overwriteClaimOf). */
	overwrite?: Overwritten;
	/** Every take-back is undone by another process's write (putBackTakeBacks): the keys put back. */
	putBack?: string[];
};
const records = shared.records;

const recordKey = (scope: DeduplicationScope, data: ICheckProcessedContextData) =>
	`${String(data.workflow.id)}/${scope === 'node' ? `n:${String(data.node?.id ?? data.node?.name)}` : ''}`;
const hash = (item: DeduplicationItemTypes) =>
	createHash('md5').update(String(item)).digest('base64');
// A microtask, not a timer: tests that stop the clock must not stop the store.
const databaseTurn = async () => await Promise.resolve();

/**
 * Whether the call comes from a workflow of an n8n an earlier test ran: a run's second write of its
 * claim (claimStore.ts) lands a second after the run, when the next test's n8n may be running; it
 * reaches that n8n's database no more than it would in n8n.
 */
function fromEarlierN8n(data: ICheckProcessedContextData): boolean {
	const born = shared.born.get(data.workflow) ?? shared.generation;
	shared.born.set(data.workflow, born);
	return born < shared.generation;
}

const store: IDataDeduplicator = {
	async checkProcessedAndRecord(items, scope, data, options: ICheckProcessedOptions) {
		if (fromEarlierN8n(data)) return { new: [], processed: items };
		if (shared.failuresAhead > 0) {
			shared.failuresAhead--;
			throw new Error('SQLITE_BUSY: database is locked');
		}
		const key = recordKey(scope, data);
		const saved = [...(records.get(key) ?? [])];
		const read = [...saved];
		await databaseTurn();
		const output: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const seen = saved.includes(hash(item));
			output[seen ? 'processed' : 'new'].push(item);
			if (!seen) saved.push(hash(item));
		}
		if (options.maxEntries) saved.splice(0, saved.length - options.maxEntries);
		records.set(key, saved);
		const overwrite = shared.overwrite;
		const claimed = (item: DeduplicationItemTypes) => String(item).endsWith(`|${overwrite?.key}`);
		if (overwrite && output.new.some(claimed)) {
			shared.overwrite = undefined;
			const hashes = output.new.filter(claimed).map(hash);
			// The other process read the record before this write; its own lands a database turn after.
			void databaseTurn().then(() => {
				records.set(key, read);
				overwrite.dropped = { key, hashes };
			});
		}
		return output;
	},
	async removeProcessed(items, scope, data) {
		const key = recordKey(scope, data);
		const gone = new Set(items.map(hash));
		const read = records.get(key) ?? [];
		records.set(
			key,
			read.filter((entry) => !gone.has(entry)),
		);
		const putBack = shared.putBack;
		if (!putBack) return;
		// Another process read the record before this take-back; its own write lands a database turn after.
		putBack.push(...items.map(String));
		void databaseTurn().then(() =>
			records.set(key, [...(records.get(key) ?? []), ...read.filter((entry) => gone.has(entry))]),
		);
	},
	async clearAllProcessedItems(scope, data) {
		records.delete(recordKey(scope, data));
	},
	async getProcessedDataCount(scope, data) {
		return records.get(recordKey(scope, data))?.length ?? 0;
	},
};

/** Gives n8n-core's deduplication helpers this store, once per test worker. */
export function installProcessedDataStore(): void {
	try {
		DataDeduplicationService.getInstance();
	} catch {
		void DataDeduplicationService.init(store);
	}
}

/** Forgets every record: each test starts with an n8n that has recorded no run. */
export function clearProcessedData(): void {
	records.clear();
	shared.generation++;
	shared.failuresAhead = 0;
	shared.overwrite = undefined;
	shared.putBack = undefined;
}

/** The next `times` claims fail (n8n's database locked). */
export function failProcessedData(times: number): void {
	shared.failuresAhead = times;
}

/**
 * Other chats' runs claim `count` more messages in every record, which keeps its last `kept`
 * entries, as n8n's 'entries' mode does: what a busy account's other conversations do to the claims.
 */
export function claimOthers(count: number, kept: number): void {
	for (const [key, saved] of records) {
		const more = Array.from({ length: count }, (_, index) => `other-${key}-${index}`);
		records.set(key, [...saved, ...more].slice(-kept));
	}
}

interface Overwritten {
	key: string;
	dropped?: { key: string; hashes: string[] };
}

/**
 * Another process's claim made at the same moment as the next claim that records `key` (as the
 * trigger claims it, `message|<id>`, without its trigger's prefix): n8n's store reads the record
 * and writes it back whole (docs/conversations.md, "two workers claiming runs of one trigger at the
 * same moment"), so the other process, which read the record before that claim's write, drops it
 * with its own write just after. `dropped`: whether that write came; `restored`: whether it came and
 * the key is in the record again.
 */
export function overwriteClaimOf(key: string): { dropped(): boolean; restored(): boolean } {
	const overwrite: Overwritten = { key };
	shared.overwrite = overwrite;
	return {
		dropped: () => overwrite.dropped !== undefined,
		restored() {
			const { dropped } = overwrite;
			const now = dropped && records.get(dropped.key);
			return !!now && dropped.hashes.every((entry) => now.includes(entry));
		},
	};
}

/**
 * From now on, every take-back (a claim made only to ask) is undone a database turn later by
 * another process's write of the record it read before: the worst such writes can do. Returns the
 * keys put back so far, each with its trigger's prefix.
 */
export function putBackTakeBacks(): readonly string[] {
	shared.putBack = [];
	return shared.putBack;
}

/**
 * The records as n8n's database would hold them, keyed `<workflow id>/` for the workflow scope the
 * trigger claims in: for a test that writes as another process would (after a read it made).
 */
export const processedRecords = (): Map<string, string[]> => records;

/** The entry the store keeps for `key` (n8n keeps a hash of each). */
export const entryOf = (key: string): string => hash(key);
