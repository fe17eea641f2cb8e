/**
 * Measuring helpers shared by the rows. Absolute times on this machine drift from run to run
 * (two cores, other processes), so every row compares contenders measured in the same rounds,
 * in rotating order, and keeps the median round: a slow spell then hits all contenders alike
 * and one outlier round cannot move the figure.
 */

export function median(values: readonly number[]): number {
	if (values.length === 0) throw new Error('median of no values');
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function elapsedMs(startNs: bigint): number {
	return Number(process.hrtime.bigint() - startNs) / 1e6;
}

/** One measured sample: the contender's own figure for one round (ns per op, calls per s, ...). */
export type Sample = () => Promise<number> | number;

/** Every contender's samples, one per round, in round order. */
export type RoundSamples<K extends string> = Record<K, number[]>;

/**
 * Runs every contender once per round, starting each round with the next contender so none
 * always goes first (warm caches) or last (accumulated garbage).
 */
export async function interleavedRounds<K extends string>(
	contenders: Record<K, Sample>,
	rounds: number,
): Promise<RoundSamples<K>> {
	const names = Object.keys(contenders) as K[];
	const samples = Object.fromEntries(
		names.map((name) => [name, [] as number[]]),
	) as RoundSamples<K>;
	for (let round = 0; round < rounds; round++) {
		for (let offset = 0; offset < names.length; offset++) {
			const name = names[(round + offset) % names.length];
			samples[name].push(await contenders[name]());
		}
	}
	return samples;
}

/**
 * Median over rounds of `numerator / denominator` taken within each round: the two samples of
 * a round ran back to back, so load that comes and goes cancels out of their ratio.
 */
export function pairedRatio(numerator: readonly number[], denominator: readonly number[]): number {
	return median(numerator.map((value, round) => value / denominator[round]));
}

function cpuNs(): number {
	const { user, system } = process.cpuUsage();
	return (user + system) * 1000;
}

/**
 * CPU nanoseconds per call of a synchronous function over `iterations` calls. CPU time, not wall
 * time: on a shared two-core machine a wall-clock sample also counts the time other processes
 * held the core, which says nothing about the code measured.
 */
export function nsPerOp(operation: () => unknown, iterations: number): number {
	const start = cpuNs();
	for (let index = 0; index < iterations; index++) operation();
	return (cpuNs() - start) / iterations;
}

/** How many calls of `operation` fill about `targetMs`, so slow and fast contenders get samples of similar length. */
export function calibrate(operation: () => unknown, targetMs: number): number {
	let iterations = 1;
	for (;;) {
		const ns = nsPerOp(operation, iterations) * iterations;
		if (ns >= (targetMs * 1e6) / 8 || iterations >= 1 << 24) {
			return Math.max(1, Math.round((iterations * targetMs * 1e6) / Math.max(ns, 1)));
		}
		iterations *= 2;
	}
}

export const ratio = (value: number, digits = 2): string => `${value.toFixed(digits)}x`;

export function duration(ms: number): string {
	if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
	if (ms >= 1) return `${ms.toFixed(2)} ms`;
	return `${(ms * 1000).toFixed(1)} µs`;
}

export function perSecond(value: number): string {
	return `${value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1)}/s`;
}

export function megabytes(bytes: number): string {
	return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}
