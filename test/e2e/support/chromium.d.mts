// Types for chromium.mjs (plain ESM so test/e2e/run.mjs can use it on plain Node).
export declare const NO_BROWSER_REASON: string;
export declare function findChromium(): string | undefined;
