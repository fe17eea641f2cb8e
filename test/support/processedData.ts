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
}) as { records: Map<string, string[]>; failuresAhead: number };
const records = shared.records;

const recordKey = (scope: DeduplicationScope, data: ICheckProcessedContextData) =>
	`${String(data.workflow.id)}/${scope === 'node' ? `n:${String(data.node?.id ?? data.node?.name)}` : ''}`;
const hash = (item: DeduplicationItemTypes) =>
	createHash('md5').update(String(item)).digest('base64');
// A microtask, not a timer: tests that stop the clock must not stop the store.
const databaseTurn = async () => await Promise.resolve();

const store: IDataDeduplicator = {
	async checkProcessedAndRecord(items, scope, data, options: ICheckProcessedOptions) {
		if (shared.failuresAhead > 0) {
			shared.failuresAhead--;
			throw new Error('SQLITE_BUSY: database is locked');
		}
		const key = recordKey(scope, data);
		const saved = [...(records.get(key) ?? [])];
		await databaseTurn();
		const output: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const seen = saved.includes(hash(item));
			output[seen ? 'processed' : 'new'].push(item);
			if (!seen) saved.push(hash(item));
		}
		if (options.maxEntries) saved.splice(0, saved.length - options.maxEntries);
		records.set(key, saved);
		return output;
	},
	async removeProcessed(items, scope, data) {
		const key = recordKey(scope, data);
		const gone = new Set(items.map(hash));
		records.set(
			key,
			(records.get(key) ?? []).filter((entry) => !gone.has(entry)),
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
	shared.failuresAhead = 0;
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

/**
 * Another process's claim made at the same moment as the claims that follow this call: n8n's store
 * reads the record and writes it back whole (docs/conversations.md, "two workers claiming runs of
 * one trigger at the same moment"), so the later write drops them. The function returned is that
 * later write: every record as it was at this call.
 */
export function claimAtTheSameMoment(): () => void {
	const before = new Map([...records].map(([key, saved]) => [key, [...saved]]));
	return () => {
		for (const key of [...records.keys()]) if (!before.has(key)) records.delete(key);
		for (const [key, saved] of before) records.set(key, saved);
	};
}
