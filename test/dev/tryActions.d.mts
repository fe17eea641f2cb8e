// Types for tryActions.mjs (plain ESM so `npm run try` runs on plain Node).
export type TryAction = () => Promise<string>;
export declare function tryExamples(where: {
	sandboxUrl: string;
	n8nUrl: string;
	webhookBaseUrl?: string;
}): Record<'reply-bot' | 'campaign' | 'refund' | 'approve' | 'approve-in-chat' | 'runs', TryAction>;
