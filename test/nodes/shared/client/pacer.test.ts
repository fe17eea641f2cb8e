import { setImmediate as flushIo } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';

import { Pacer, type PaceBucket, type PacerOptions } from '../../../../nodes/shared/client/pacer';

/** A virtual clock: `sleep` parks until `run` moves time to the earliest due waiter. */
class FakeClock {
	time = 0;
	sleeps: number[] = [];
	private timers: Array<{ due: number; wake: () => void }> = [];

	now = () => this.time;

	sleep = (ms: number) => {
		this.sleeps.push(ms);
		return new Promise<void>((wake) => this.timers.push({ due: this.time + ms, wake }));
	};

	/** Lets every pending task run, firing timers in due order until `done` settles. */
	async run<T>(work: Promise<T>): Promise<T> {
		let settled = false;
		const result = work.finally(() => {
			settled = true;
		});
		while (!settled) {
			await flushIo();
			if (settled) break;
			this.timers.sort((a, b) => a.due - b.due);
			const next = this.timers.shift();
			if (!next) continue;
			this.time = Math.max(this.time, next.due);
			next.wake();
		}
		return await result;
	}
}

function pacer(clock: FakeClock, options: Partial<PacerOptions> = {}) {
	return new Pacer({ now: clock.now, sleep: clock.sleep, marginMs: 0, ...options });
}

/** Acquires one slot per entry, in sequence, releasing after `durationMs`; returns start times. */
async function runSequence(clock: FakeClock, gate: Pacer, buckets: PaceBucket[][], durationMs = 0) {
	const starts: number[] = [];
	for (const item of buckets) {
		const release = await gate.acquire(item);
		starts.push(clock.time);
		clock.time += durationMs;
		release();
	}
	return starts;
}

/** Most calls any window of `windowMs` sees, counting each call at `time + offset`. */
function busiestWindow(times: number[], windowMs: number): number {
	let best = 0;
	for (const end of times)
		best = Math.max(best, times.filter((t) => t > end - windowMs && t <= end).length);
	return best;
}

const times = (count: number, buckets: PaceBucket[]) =>
	Array.from({ length: count }, () => buckets);

describe('Pacer', () => {
	it('bursts the write budget, then waits exactly until the oldest call leaves the window', async () => {
		const clock = new FakeClock();
		const starts = await clock.run(runSequence(clock, pacer(clock), times(300, ['write'])));
		expect(starts.filter((t) => t === 0)).toHaveLength(120);
		expect(starts.filter((t) => t === 60_000)).toHaveLength(120);
		expect(starts.filter((t) => t === 120_000)).toHaveLength(60);
		expect(clock.sleeps).toEqual([60_000, 60_000]);
		expect(busiestWindow(starts, 60_000)).toBe(120);
	});

	it('paces QR sends at 5 per minute per number while writes still fit', async () => {
		const clock = new FakeClock();
		const starts = await clock.run(
			runSequence(clock, pacer(clock), times(12, ['write', 'qr:4915112345678'])),
		);
		expect(starts).toEqual([
			0, 0, 0, 0, 0, 60_000, 60_000, 60_000, 60_000, 60_000, 120_000, 120_000,
		]);
	});

	it('keeps separate QR numbers, reads and writes in separate windows', async () => {
		const clock = new FakeClock();
		const gate = pacer(clock);
		const plan: PaceBucket[][] = [
			...times(5, ['write', 'qr:1']),
			...times(5, ['write', 'qr:2']),
			...times(600, ['read']),
		];
		const starts = await clock.run(runSequence(clock, gate, plan));
		expect(starts.every((t) => t === 0)).toBe(true);
		expect(await clock.run(runSequence(clock, gate, [['read']]))).toEqual([60_000]);
	});

	it('counts a slot from when its call finished, so slow calls never crowd the server window', async () => {
		const clock = new FakeClock();
		const starts = await clock.run(
			runSequence(clock, pacer(clock, { budgets: { write: 10 } }), times(40, ['write']), 700),
		);
		// The server sees each call somewhere between its start and its end: judge by both.
		expect(busiestWindow(starts, 60_000)).toBeLessThanOrEqual(10);
		expect(
			busiestWindow(
				starts.map((t) => t + 700),
				60_000,
			),
		).toBeLessThanOrEqual(10);
		// And no slower than necessary: the 11th starts when the 1st's end leaves the window.
		expect(starts[10]).toBe(700 + 60_000);
	});

	it('serves concurrent callers without exceeding the budget', async () => {
		const clock = new FakeClock();
		const gate = pacer(clock, { budgets: { write: 5 } });
		const starts: number[] = [];
		await clock.run(
			Promise.all(
				Array.from({ length: 12 }, async () => {
					const release = await gate.acquire(['write']);
					starts.push(clock.time);
					release();
				}),
			),
		);
		expect(starts.sort((a, b) => a - b)).toEqual([
			0, 0, 0, 0, 0, 60_000, 60_000, 60_000, 60_000, 60_000, 120_000, 120_000,
		]);
	});

	it('adds a safety margin by default and honours scaled windows (sped-up sandbox clocks)', async () => {
		const clock = new FakeClock();
		const gate = new Pacer({
			now: clock.now,
			sleep: clock.sleep,
			budgets: { write: 2, windowMs: 1_000 },
		});
		await clock.run(runSequence(clock, gate, times(3, ['write'])));
		expect(clock.sleeps).toEqual([1_000 + 5]);
		const minuteGate = new Pacer({ now: clock.now, sleep: clock.sleep, budgets: { read: 1 } });
		clock.sleeps = [];
		await clock.run(runSequence(clock, minuteGate, times(2, ['read'])));
		expect(clock.sleeps).toEqual([60_000 + 60]);
	});

	it('exposes its budgets', () => {
		const gate = new Pacer({ now: () => 0, sleep: async () => {}, budgets: { qrSend: 3 } });
		expect(gate.budgets).toEqual({ read: 600, write: 120, qrSend: 3, windowMs: 60_000 });
		expect(gate.budgetOf('qr:any')).toBe(3);
		expect(gate.waitFor('read', 0)).toBe(0);
	});

	it('keeps defaults for options given as undefined and allows at least one call per window', async () => {
		const gate = new Pacer({
			now: () => 0,
			sleep: async () => {},
			budgets: { write: undefined, read: 0 },
		});
		expect(gate.budgets.write).toBe(120);
		expect(gate.budgetOf('read')).toBe(1);
		const clock = new FakeClock();
		const zero = pacer(clock, { budgets: { qrSend: 0 } });
		expect(await clock.run(runSequence(clock, zero, times(2, ['qr:1'])))).toEqual([0, 60_000]);
	});
});
