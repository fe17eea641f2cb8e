// Types for tryActions.mjs (plain ESM so `npm run try` runs on plain Node).
export type TryAction = () => Promise<string>;
export type TryExample =
	| 'reply-bot'
	| 'ai-bot'
	| 'hand-over'
	| 'lost-event'
	| 'bot-off'
	| 'bot-on'
	| 'attachment'
	| 'campaign'
	| 'refund'
	| 'approve'
	| 'approve-in-chat'
	| 'undelivered'
	| 'runs';
export declare function tryExamples(where: {
	sandboxUrl: string;
	n8nUrl: string;
	webhookBaseUrl?: string;
	progress?: (line: string) => void;
}): Record<TryExample, TryAction>;
