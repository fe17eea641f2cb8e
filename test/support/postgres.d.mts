// Types for postgres.mjs (plain ESM so `npm run dev` runs on plain Node).
export declare const SOCKET_PATH_LIMIT: number;
export declare const NO_POSTGRES_REASON: string;
export declare function socketFolder(): string;
export declare function socketPath(folder: string, port: number): string;
export declare function postgresBinDir(): string | undefined;
export declare function startPostgres(options: {
	folder: string;
	log?: (line: string) => void;
}): Promise<{
	port: number;
	env: Record<string, string>;
	logFile: string;
	socket: string;
	stop(): Promise<void>;
}>;
