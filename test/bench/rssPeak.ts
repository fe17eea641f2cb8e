import { Worker } from 'node:worker_threads';

/*
 * Peak resident memory of this process while something runs. Sampled from a worker thread
 * because the node reads and checks all items in one synchronous loop, during which a timer
 * on the main thread would never fire. RSS is per process, so the worker sees the main
 * thread's memory too.
 */

const SAMPLER = `
const { parentPort } = require('node:worker_threads');
let peak = process.memoryUsage.rss();
const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 5);
parentPort.on('message', () => {
	clearInterval(timer);
	parentPort.postMessage(Math.max(peak, process.memoryUsage.rss()));
});
`;

export interface RssWatch {
	/** RSS when watching started, after the worker itself was running. */
	baseline: number;
	/** Stops sampling; resolves with the highest RSS seen. */
	stop(): Promise<number>;
}

export async function watchRss(): Promise<RssWatch> {
	const worker = new Worker(SAMPLER, { eval: true });
	await new Promise<void>((resolve, reject) => {
		worker.once('online', resolve);
		worker.once('error', reject);
	});
	const baseline = process.memoryUsage.rss();
	return {
		baseline,
		stop: async () => {
			const peak = new Promise<number>((resolve, reject) => {
				worker.once('message', resolve);
				worker.once('error', reject);
			});
			worker.postMessage('stop');
			const value = await peak;
			await worker.terminate();
			return Math.max(value, baseline);
		},
	};
}

/**
 * A full garbage collection, so a baseline holds live memory only: garbage left from before
 * could otherwise be reused without the RSS growing, hiding what the measured part needs.
 */
export function collectGarbage(): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('start the benchmarks with `npm run bench` (it passes --expose-gc)');
	gc();
}
