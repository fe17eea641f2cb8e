// Types for tryIt.mjs (plain ESM so `npm run dev` runs on plain Node).
export declare const START_PATHS: Record<'campaign-from-list' | 'refund-approval', string>;
export declare const DEFAULT_ADDRESSES: { sandboxUrl: string; n8nUrl: string };
export declare const UNDELIVERED_UPDATE: Record<string, unknown> & { phoneNumber: string };
export interface TryItCommands {
	replyBot: string;
	aiBot: string;
	pause: string;
	resume: string;
	handOver: string;
	lostEvent: string;
	sends: string;
	attachment: string;
	campaign: string;
	refund: string;
	approve: string;
	approveInChat: string;
	undelivered: string;
	runs: string;
}
export declare function tryItCommands(where: {
	sandboxUrl: string;
	n8nUrl: string;
	webhookBaseUrl?: string;
}): TryItCommands;
export declare const STOPS: string;
export declare const CREDENTIAL_NAME: string;
export declare function devBanner(input: {
	n8nUrl: string;
	login: { email: string; password: string };
	sandbox: { url: string; apiKey: string };
	queue?: string;
	credential: string;
	workflows: Array<{ name: string; active: boolean; link: string }>;
	run: TryItCommands;
}): string;
