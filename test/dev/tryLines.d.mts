// Types for tryLines.mjs (plain ESM so `npm run try` runs on plain Node).
type Line = (values: Record<string, string | number | string[]>) => string;
export declare const STAFF: string;
export declare const MANAGER: string;
export declare const CUSTOMER: string;
export declare const DANA: { phone: string; name: string };
export declare const QUICK_MESSAGES: string[];
export declare class RunFirst extends Error {}
export declare const LINES: Record<
	| 'replyBot'
	| 'aiBot'
	| 'botOff'
	| 'botOn'
	| 'notPaused'
	| 'handOver'
	| 'attachment'
	| 'campaign'
	| 'refund'
	| 'approved'
	| 'lostEvent'
	| 'undelivered',
	Line
>;
export declare const FIRST: {
	windowClosed: (command: string) => string;
	paused: Line;
	noQuestion: () => string;
	answered: Line;
};
export declare const waitingLine: (what: string, elapsedMs: number) => string;
