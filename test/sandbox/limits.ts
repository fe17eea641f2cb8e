import type { SandboxClock } from './clock';
import { SandboxApiError } from './sandboxError';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Numbers from the spec's Limits table. */
export const LIMITS = {
	readPerMinute: 600,
	writePerMinute: 120,
	qrSendsPerMinute: 5,
	qrSendsPerDay: 50,
} as const;

/** Timestamps of accepted events per bucket, pruned to the last minute on every look. */
class SlidingWindow {
	private readonly hits = new Map<string, number[]>();

	constructor(private readonly windowMs: number) {}

	/** Seconds until one more hit fits, or 0 when it fits now. */
	wait(bucket: string, limit: number, now: number): number {
		const list = this.prune(bucket, now);
		if (list.length < limit) return 0;
		return Math.max(1, Math.ceil((list[list.length - limit] + this.windowMs - now) / 1000));
	}

	clear(): void {
		this.hits.clear();
	}

	hit(bucket: string, now: number): void {
		this.prune(bucket, now).push(now);
	}

	private prune(bucket: string, now: number): number[] {
		const list = (this.hits.get(bucket) ?? []).filter((t) => t > now - this.windowMs);
		this.hits.set(bucket, list);
		return list;
	}
}

export function rateLimited(seconds: number, what: string): SandboxApiError {
	return new SandboxApiError(
		429,
		'rate_limited',
		`${what}. Wait ${seconds} s (Retry-After) and retry with the same idempotency key.`,
		{ retry_after: seconds },
		{ 'Retry-After': String(seconds) },
	);
}

/** Per-key call ceilings and per-number QR send counters, all on the sandbox clock. */
export class Limits {
	private readonly calls = new SlidingWindow(MINUTE);
	private readonly qrMinute = new SlidingWindow(MINUTE);
	private readonly qrDay = new Map<string, { day: number; count: number }>();

	constructor(private readonly clock: SandboxClock) {}

	/** Counts one call against the key's read or write window, or refuses it. */
	takeCall(keyId: string, access: 'read' | 'write'): void {
		const now = this.clock.now();
		const limit = access === 'read' ? LIMITS.readPerMinute : LIMITS.writePerMinute;
		const bucket = `${keyId}:${access}`;
		const wait = this.calls.wait(bucket, limit, now);
		if (wait > 0)
			throw rateLimited(wait, `More than ${limit} ${access} calls per minute for this API key`);
		this.calls.hit(bucket, now);
	}

	/** Refuses a QR send that would break the daily or per-minute cap, without counting it. */
	checkQrSend(phone: string): void {
		const now = this.clock.now();
		if (this.dailyCount(phone, now) >= LIMITS.qrSendsPerDay) {
			const seconds = Math.max(1, Math.ceil((nextUtcMidnight(now) - now) / 1000));
			throw new SandboxApiError(
				429,
				'daily_limit_reached',
				`The personal number used its ${LIMITS.qrSendsPerDay} API sends for today; counters reset at 00:00 UTC.`,
				{ retry_after: seconds },
				{ 'Retry-After': String(seconds) },
			);
		}
		const wait = this.qrMinute.wait(phone, LIMITS.qrSendsPerMinute, now);
		if (wait > 0)
			throw rateLimited(
				wait,
				`More than ${LIMITS.qrSendsPerMinute} sends per minute from this personal number`,
			);
	}

	countQrSend(phone: string): void {
		const now = this.clock.now();
		this.qrMinute.hit(phone, now);
		const day = Math.floor(now / DAY);
		const entry = this.qrDay.get(phone);
		this.qrDay.set(phone, { day, count: entry && entry.day === day ? entry.count + 1 : 1 });
	}

	/**
	 * Forgets every QR send counted so far, as a new day and minute would: for suites that send more than a
	 * number may in a minute and must not wait it out in real time, nor move the clock past webhook
	 * signatures' five-minute tolerance.
	 */
	forgetQrSends(): void {
		this.qrMinute.clear();
		this.qrDay.clear();
	}

	qrSendsToday(phone: string): number {
		return this.dailyCount(phone, this.clock.now());
	}

	private dailyCount(phone: string, now: number): number {
		const entry = this.qrDay.get(phone);
		return entry && entry.day === Math.floor(now / DAY) ? entry.count : 0;
	}
}

export function nextUtcMidnight(now: number): number {
	return (Math.floor(now / DAY) + 1) * DAY;
}
