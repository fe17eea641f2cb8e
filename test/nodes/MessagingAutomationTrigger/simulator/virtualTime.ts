/**
 * The simulator's one clock: vitest's fake timers (Date, performance, setTimeout, which
 * n8n-workflow's `sleep` uses). The service's time is the true time, counted on the monotonic
 * (faked) `performance.now()`; the host's wall clock (`Date.now()`) runs `hostSkewMs` apart from it
 * and may step (`vi.setSystemTime`, which leaves `performance.now()` alone, as NTP does).
 *
 * One fake clock serves many cases and only ever moves forward: the trigger's module state of an
 * earlier case (kept reads, shared deadlines) then always looks as old as it is.
 */
import { vi } from 'vitest';

/** Service time when the fake clock is installed: a fixed date, so no case depends on the machine. */
const EPOCH = Date.parse('2026-11-28T08:00:00.000Z');
/** Between two cases: longer than anything the trigger keeps (28 h of dedupe retention). */
const CASE_GAP_MS = 30 * 3_600_000;

let installed = false;

export function installVirtualTime(): void {
	if (installed) return;
	vi.useFakeTimers({
		toFake: ['Date', 'performance', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
		now: EPOCH,
	});
	installed = true;
}

export function uninstallVirtualTime(): void {
	vi.clearAllTimers();
	vi.useRealTimers();
	installed = false;
}

export class VirtualTime {
	/** Monotonic time the case began. */
	private readonly perf0: number;

	/** A new case: every timer of the last one dropped, a day and more later, `phaseMs` into a second. */
	constructor(hostSkewMs: number, phaseMs: number) {
		// vi.clearAllTimers() also puts the fake clock back where it was installed (fake-timers'
		// reset): a case would begin where every case before it began, beside their kept reads and
		// deadline slots, and see them as new. Brought forward past where the last case ended.
		const ended = performance.now();
		vi.clearAllTimers();
		vi.advanceTimersByTime(Math.max(0, ended - performance.now()) + CASE_GAP_MS);
		// Where in its second the case begins: deliveries are signed in whole seconds.
		const intoSecond = (EPOCH + performance.now()) % 1000;
		vi.advanceTimersByTime((1000 - intoSecond + phaseMs) % 1000);
		this.perf0 = performance.now();
		vi.setSystemTime(this.serviceNow() + hostSkewMs);
	}

	/** The service's (true) time. */
	serviceNow(): number {
		return EPOCH + performance.now();
	}

	/** Milliseconds since the case began, true time. */
	elapsed(): number {
		return performance.now() - this.perf0;
	}

	/** `task` at case time `atMs` (true time since the case began). */
	at(atMs: number, task: () => void): void {
		setTimeout(task, Math.max(0, atMs - this.elapsed()));
	}

	/** The host's wall clock steps by `ms`; the monotonic clock does not. */
	stepHost(ms: number): void {
		vi.setSystemTime(Date.now() + ms);
	}

	/** Runs every timer due up to case time `atMs`, in order, with the promises each one starts. */
	async runUntil(atMs: number): Promise<void> {
		await vi.advanceTimersByTimeAsync(Math.max(0, atMs - this.elapsed()));
	}
}

/**
 * `Math.random` (the nodes' backoff jitter) seeded from `text` (the case) until the returned
 * function restores it: a case replays exactly, and shrinking compares like with like.
 */
export function seedRandom(text: string): () => void {
	let state = 2166136261;
	for (let index = 0; index < text.length; index++)
		state = Math.imul(state ^ text.charCodeAt(index), 16777619);
	// mulberry32
	const spy = vi.spyOn(Math, 'random').mockImplementation(() => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	});
	return () => spy.mockRestore();
}
