// Types for n8nProcess.mjs (plain ESM so `npm run dev` runs on plain Node).
import type { N8nHandle } from '../dev/stack.mjs';

export declare const PACKAGE_NAME: string;
export declare const OWNER: {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
};
export declare function freePort(): Promise<number>;
export declare function installPackageInto(userFolder: string): string;
export declare function killRecordedGroups(folder: string): number;
export declare function logTail(file: string, lines?: number): string;
export declare function startN8n(options: {
	userFolder: string;
	port?: number;
	command?: 'start' | 'worker' | 'webhook';
	fresh?: boolean;
	installPackage?: boolean;
	extraEnv?: Record<string, string>;
	readyTimeoutMs?: number;
	log?: (line: string) => void;
	logName?: string;
	/** Keep running after the calling process exits (the e2e runner's sweep ends it). */
	outlive?: boolean;
}): Promise<N8nHandle & { env: Record<string, string> }>;
export declare function startRedis(options: {
	folder: string;
	log?: (line: string) => void;
}): Promise<{
	host: string;
	port: number;
	logFile: string;
	stop(): Promise<void>;
}>;
export declare function spawnSupervised(
	bin: string,
	args: string[],
	options: {
		env: NodeJS.ProcessEnv;
		cwd: string;
		logFile: string;
		signal?: NodeJS.Signals;
		outlive?: boolean;
	},
): {
	child: import('node:child_process').ChildProcess;
	exited: Promise<{ code: number | null; signal: string | null; error?: Error }>;
	stop(): Promise<void>;
};
