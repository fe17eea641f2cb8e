// Types for npmProgress.mjs (plain ESM so `npm run dev` runs on plain Node).
export declare function outsideNpm(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export declare function countInstalled(dir: string): number;
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
