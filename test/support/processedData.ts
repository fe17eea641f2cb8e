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

// n8n-core is loaded once per test worker, and its store with it, while this file is evaluated again
// for every test file: the records live on the global object, so every evaluation shares them.
const RECORDS = Symbol.for('messaging-automation.test.processedData');
const records: Map<string, string[]> = ((globalThis as Record<symbol, unknown>)[RECORDS] ??=
	new Map<string, string[]>()) as Map<string, string[]>;

const recordKey = (scope: DeduplicationScope, data: ICheckProcessedContextData) =>
	`${String(data.workflow.id)}/${scope === 'node' ? `n:${String(data.node?.id ?? data.node?.name)}` : ''}`;
const hash = (item: DeduplicationItemTypes) =>
	createHash('md5').update(String(item)).digest('base64');
// A microtask, not a timer: tests that stop the clock must not stop the store.
const databaseTurn = async () => await Promise.resolve();

/**
 * How many of the next claims fail, as n8n's database does when it is locked or gone: on the global
 * object too, since the store installed is the first evaluation's, whichever file asks for failures.
 */
const FAILURES = Symbol.for('messaging-automation.test.processedDataFailures');
const failures: { ahead: number } = ((globalThis as Record<symbol, unknown>)[FAILURES] ??= {
	ahead: 0,
}) as { ahead: number };

const store: IDataDeduplicator = {
	async checkProcessedAndRecord(items, scope, data, options: ICheckProcessedOptions) {
		if (failures.ahead > 0) {
			failures.ahead--;
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
	failures.ahead = 0;
}

/** The next `times` claims fail (n8n's database locked). */
export function failProcessedData(times: number): void {
	failures.ahead = times;
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
