/**
 * A replayed case's trace (SIM_TRACE=1 with replay.soak.test.ts): what each process did, on the
 * case's clock, so a violation's mechanism can be read step by step. Off, it costs one check a call.
 */
const on = process.env.SIM_TRACE !== undefined;
let base = 0;

/** The case begins now: trace times count from here. */
export function traceCase(): void {
	base = performance.now();
}

export function trace(line: string | (() => string)): void {
	if (!on) return;
	const text = typeof line === 'string' ? line : line();
	console.log(`${String(Math.round(performance.now() - base)).padStart(8)} ${text}`);
}

/** The nodes' logger: quiet unless a trace is asked for, then every line is in it. */
export const traceLogger = (who: string) => {
	const log = (level: string) => (message: string) => trace(`${who} ${level}: ${message}`);
	return on
		? {
				debug: log('debug'),
				info: log('info'),
				warn: log('warn'),
				error: log('error'),
				verbose: log('verbose'),
			}
		: undefined;
};

/** Runs as a trace names them: each one's messages. */
export const runsText = (runs: ReadonlyArray<{ messageIds: string[] }>) =>
	runs.map((run) => `[${run.messageIds.join(' ')}]`).join(' ');

/** A call to n8n's processed-data store, its keys without the trigger's prefix, and what was new. */
export function traceStore(who: string, call: string, keys: string[], result: unknown): void {
	const bare = (list: unknown[]) =>
		list.map((key) => String(key).replace(/^[^|]*\|/, '')).join(' ');
	const fresh = (result as { new?: unknown[] } | undefined)?.new;
	trace(() => `${who} ${call} ${bare(keys)}${fresh ? ` -> new ${bare(fresh)}` : ''}`);
}
