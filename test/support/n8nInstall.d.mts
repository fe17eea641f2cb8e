// Types for n8nInstall.mjs (plain ESM so `npm run dev` runs on plain Node).
export declare const DEFAULT_N8N_VERSION: string;
/** The newest n8n 2.x that installs from the registry (2.41.1). */
export declare const NEWEST_INSTALLABLE_2X: string;
/** The first `npm run dev`'s time and size, as printed and as the README says it. */
export declare const FIRST_RUN: string;
/** The n8n under test: TEST_N8N_VERSION resolved (`1.123.x` → `1.123.81`), default 2.40.7. */
export declare const N8N_VERSION: string;
export declare const N8N_MAJOR: number;
export declare const NODE_VERSION: string;
export declare const projectRoot: string;
export declare const cacheRoot: string;
export declare const installDir: string;
export interface InstallPaths {
	installDir: string;
	nodeDir: string;
	nodeBin: string;
	n8nBin: string;
	n8nModules: string;
}
export declare function resolveN8nVersion(requested?: string): string;
export declare function installPaths(): InstallPaths;
export declare function isInstalled(): boolean;
export declare function ensureN8n(options?: {
	log?: (line: string) => void;
}): Promise<InstallPaths>;
