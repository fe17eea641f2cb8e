// Types for stack.mjs (plain ESM so `npm run dev` runs on plain Node).
import type { SandboxHandle, SandboxOptions } from '../sandbox/index.js';
import type { N8nRestApi, N8nWorkflowInput } from '../support/n8nRestApi.mjs';

export interface N8nHandle {
	url: string;
	port: number;
	userFolder: string;
	/** The folder n8n may write files to (N8N_RESTRICT_FILE_ACCESS_TO). */
	filesDir: string;
	logFile: string;
	pid: number;
	startSeconds: number;
	/** Resolves when the process has exited, however it was stopped. */
	exited: Promise<{ code: number | null; signal: string | null; error?: Error }>;
	stop(): Promise<void>;
}

export interface Stack {
	sandbox: SandboxHandle;
	/** The main process: editor and REST API (and, outside queue mode, webhooks and executions). */
	n8n: N8nHandle;
	/** Queue mode only: the first worker and webhook process, and all of them. */
	worker?: N8nHandle;
	webhook?: N8nHandle;
	workers?: N8nHandle[];
	webhooks?: N8nHandle[];
	/** Queue mode only: the shared database (PostgreSQL when Debian's server is installed). */
	database?: 'postgres' | 'sqlite';
	/** Queue mode only: the settings every queue process shares (Redis, database, webhook URL). */
	queueEnv?: Record<string, string>;
	/** Where production webhooks are served: the webhook process in queue mode, else the main one. */
	webhookBaseUrl: string;
	api: N8nRestApi;
	/** The n8n version running (TEST_N8N_VERSION, default 2.40.7). */
	n8nVersion: string;
	stop(): Promise<void>;
}

export declare const OWNER: {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
};
export declare const CREDENTIAL_TYPE: 'messagingAutomationApi';
export declare const NODE_TYPES: {
	action: string;
	trigger: string;
	catchUp: string;
	memory: string;
};
export declare function buildPackage(log?: (line: string) => void): Promise<void>;
export declare function startStack(options: {
	userFolder: string;
	fresh?: boolean;
	n8nPort?: number;
	sandboxOptions?: SandboxOptions;
	build?: boolean;
	queue?: boolean;
	/** Queue mode: how many webhook processes and workers (1 each by default). */
	queueScale?: { webhooks?: number; workers?: number };
	n8nEnv?: Record<string, string>;
	log?: (line: string) => void;
}): Promise<Stack>;
export declare function sandboxCredentialData(
	sandbox: Pick<SandboxHandle, 'url' | 'apiKey'>,
	apiKey?: string,
): { apiKey: string; baseUrl: string; authScheme: 'bearer'; headerName: string };
export declare function upsertCredential(
	api: N8nRestApi,
	name: string,
	data: Record<string, unknown>,
	type?: string,
): Promise<{ id: string; name: string }>;
export declare const OPENAI_MODEL_TYPE: string;
export declare function withCredential<T extends N8nWorkflowInput>(
	workflow: T,
	credential: { id: string; name: string },
	modelCredential?: { id: string; name: string },
): T;
export declare function exampleWorkflows(
	filesDir: string,
): Record<
	string,
	N8nWorkflowInput & { nodes: Array<N8nWorkflowInput['nodes'][number] & { webhookId?: string }> }
>;
export declare function listens(workflow: N8nWorkflowInput): boolean;
