/*
 * Every deadline and wait inside a process runs on its monotonic clock: a host clock that steps
 * (NTP, a person setting it) moves none of them. Wall-clock time is kept only for what outlives
 * the process (the dedupe window in static data) and the service's clock only for comparing
 * message timestamps (serviceClock.ts).
 */

/** Monotonic milliseconds of this process. */
export const monotonicNow = (): number => performance.now();

/** The monotonic deadline `ms` from now. */
export const deadlineIn = (ms: number): number => monotonicNow() + ms;
