import { describe, expect, it } from 'vitest';

import { DeadlineClock, deadlines } from '../../../../nodes/shared/transport/deadline';

/** A clock the test moves by hand: timers fire only when it passes their time. */
function virtualClock() {
	let now = 1_000;
	const timers: Array<{ at: number; fire: () => void }> = [];
	return {
		now: () => now,
		sleep: async (ms: number) =>
			await new Promise<void>((fire) => void timers.push({ at: now + ms, fire })),
		timers,
		async advanceTo(time: number) {
			now = time;
			for (const timer of timers.filter((candidate) => candidate.at <= now)) {
				timers.splice(timers.indexOf(timer), 1);
				timer.fire();
			}
			await new Promise((resolve) => setImmediate(resolve));
		},
	};
}

describe('DeadlineClock', () => {
	it('aborts no sooner than the deadline and at most a thousandth of the time-out after it', async () => {
		const clock = virtualClock();
		const deadline = new DeadlineClock(clock).start(30_000);
		await clock.advanceTo(1_000 + 30_000 - 1);
		expect(deadline.signal.aborted).toBe(false);
		await clock.advanceTo(1_000 + 30_000 + 30);
		expect(deadline.signal.aborted).toBe(true);
	});

	it('gives exchanges whose deadlines share a slot one signal and one timer, a few at a time', async () => {
		const clock = virtualClock();
		const deadlineClock = new DeadlineClock(clock);
		const first = deadlineClock.start(30_000);
		first.done();
		const sequential = Array.from({ length: 10 }, () => {
			const deadline = deadlineClock.start(30_000);
			deadline.done();
			return deadline.signal;
		});
		expect(new Set([first.signal, ...sequential]).size).toBe(1);
		expect(clock.timers).toHaveLength(1);

		// In flight together: never more than four on one signal (Node warns past ten listeners).
		const together = Array.from({ length: 9 }, () => deadlineClock.start(30_000));
		expect(new Set(together.map((deadline) => deadline.signal)).size).toBe(3);

		// A later slot, a new signal; the old one still aborts at its own time.
		await clock.advanceTo(1_000 + 31);
		const later = deadlineClock.start(30_000);
		expect(later.signal).not.toBe(first.signal);
		await clock.advanceTo(1_000 + 30_000 + 30);
		expect(first.signal.aborted).toBe(true);
		expect(later.signal.aborted).toBe(false);
	});

	it('calls expiry listeners once at the deadline, and at once when it has passed; the signal made late is already aborted', async () => {
		const clock = virtualClock();
		const deadline = new DeadlineClock(clock).start(30_000);
		const calls: string[] = [];
		deadline.onExpiry(() => calls.push('kept'));
		const remove = deadline.onExpiry(() => calls.push('removed'));
		remove();
		await clock.advanceTo(1_000 + 30_000 - 1);
		expect([deadline.expired, calls]).toEqual([false, []]);
		await clock.advanceTo(1_000 + 30_000 + 30);
		expect([deadline.expired, calls]).toEqual([true, ['kept']]);
		deadline.onExpiry(() => calls.push('late'));
		expect(calls).toEqual(['kept', 'late']);
		expect(deadline.signal.aborted).toBe(true);
	});

	it('runs on the real clock for the transports', async () => {
		const deadline = deadlines.start(50);
		expect(deadline.signal.aborted).toBe(false);
		await new Promise((resolve) => deadline.signal.addEventListener('abort', resolve));
		expect(deadline.signal.aborted).toBe(true);
	});
});
