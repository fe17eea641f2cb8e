// Types for tryReport.mjs (plain ESM so `npm run try` runs on plain Node).
export interface SandboxSend {
	message_id: string;
	to: string;
	text: string;
	conversation_id?: string;
}
export interface Question {
	send: SandboxSend;
	link: string;
	run: string;
}
export declare function newSends<T extends SandboxSend>(before: Set<string>, sends: T[]): T[];
export declare function approveLink(text: string | undefined): string | undefined;
export declare function runOfLink(link: string): string | undefined;
export declare function questionsTo(sends: SandboxSend[], to: string): Question[];
export declare function quote(text: string | undefined): string;
export declare function duration(ms: number): string;
export declare function runsTable(
	executions: Array<{
		id: string;
		status: string;
		workflowId?: string;
		workflowName?: string;
		startedAt?: string;
		stoppedAt?: string | null;
		createdAt?: string;
	}>,
	now: number,
): string;
