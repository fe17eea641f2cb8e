// Types for npmProgress.mjs (plain ESM so `npm run dev` runs on plain Node).
export declare function outsideNpm(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export declare function countInstalled(dir: string): number;
export interface ProcessWork {
	read: number;
	written: number;
	cpuSeconds: number;
}
export declare function processWork(pid: number): ProcessWork | undefined;

/** What one npm run has done so far. */
export interface NpmCounts {
	phase: 'install' | 'build';
	packuments: number;
	tarballs: number;
	cached: number;
	installed: number;
	work?: ProcessWork;
	expected?: number;
}
export declare function describeJob(counts: NpmCounts): string;
export declare function progressLine(
	jobs: Array<{ label: string; started: number; counts: NpmCounts }>,
	now: number,
): string;
export declare function npmWithProgress(
	args: string[],
	options: {
		cwd: string;
		env?: Record<string, string>;
		log: (line: string) => void;
		label: string;
		phase?: 'install' | 'build';
		/** The package count the install is known to end with, shown as the total. */
		expected?: number;
	},
): Promise<number>;
