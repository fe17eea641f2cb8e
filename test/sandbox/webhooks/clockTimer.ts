import type { SandboxClock } from '../clock';

/** setTimeout's ceiling; longer waits are re-armed when they wake early. */
const MAX_REAL_DELAY_MS = 2 ** 31 - 1;

/**
 * One wake-up at a point in sandbox time. A real timer only approximates it, so the timer is
 * re-armed whenever the clock jumps or changes speed, and `onWake` re-checks what is due.
 */
export class ClockTimer {
	private target: number | null = null;
	private handle: NodeJS.Timeout | null = null;
	private readonly unsubscribe: () => void;

	constructor(
		private readonly clock: SandboxClock,
		private readonly onWake: () => void,
	) {
		this.unsubscribe = clock.onChange(() => this.arm());
	}

	/** Wake at sandbox time `at`, replacing any earlier request; null cancels. */
	wakeAt(at: number | null): void {
		this.target = at;
		this.arm();
	}

	stop(): void {
		this.target = null;
		this.arm();
		this.unsubscribe();
	}

	private arm(): void {
		if (this.handle) clearTimeout(this.handle);
		this.handle = null;
		if (this.target === null) return;
		// Checked first because a frozen clock (speed 0) would make the division below meaningless.
		const due = this.target <= this.clock.now();
		const delay = due ? 0 : Math.min(MAX_REAL_DELAY_MS, this.clock.realDelayUntil(this.target));
		this.handle = setTimeout(() => {
			this.handle = null;
			this.onWake();
		}, delay);
		// A pending retry must not keep a test process or the CLI alive on its own.
		this.handle.unref();
	}
}
