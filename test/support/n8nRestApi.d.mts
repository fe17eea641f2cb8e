// Types for n8nRestApi.mjs (plain ESM so the dev script runs without a TypeScript loader).
export interface N8nExecution {
	id: string;
	status: string;
	finished?: boolean;
	mode?: string;
	workflowId?: string;
	startedAt?: string;
	stoppedAt?: string | null;
	createdAt?: string;
	workflowName?: string;
	data?: { resultData?: { error?: { message?: string }; runData?: Record<string, unknown> } };
}

export interface N8nWorkflowInput {
	name: string;
	nodes: Array<Record<string, unknown> & { name: string; type: string }>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
}

export interface N8nWorkflow extends N8nWorkflowInput {
	id: string;
	active: boolean;
	versionId: string;
}

export declare class N8nRestError extends Error {
	status: number;
	body: unknown;
}

export declare class N8nRestApi {
	baseUrl: string;
	cookie: string;
	request<T = any>(method: string, path: string, body?: unknown): Promise<T>;
	listCredentials(): Promise<Array<{ id: string; name: string; type: string }>>;
	createCredential(input: {
		name: string;
		type: string;
		data: Record<string, unknown>;
	}): Promise<{ id: string; name: string }>;
	updateCredential(
		id: string,
		input: { name: string; type: string; data: Record<string, unknown> },
	): Promise<unknown>;
	testCredential(input: {
		id?: string;
		name?: string;
		type: string;
		data?: Record<string, unknown>;
	}): Promise<{ status: 'OK' | 'Error'; message: string }>;
	listWorkflows(): Promise<N8nWorkflow[]>;
	getWorkflow(id: string): Promise<N8nWorkflow>;
	createWorkflow(workflow: N8nWorkflowInput): Promise<N8nWorkflow>;
	activateWorkflow(id: string): Promise<N8nWorkflow>;
	deactivateWorkflow(id: string): Promise<N8nWorkflow>;
	deleteWorkflow(id: string): Promise<unknown>;
	runManually(id: string, triggerName: string): Promise<{ executionId: string }>;
	listExecutions(workflowId: string): Promise<N8nExecution[]>;
	listAllExecutions(workflowId: string): Promise<N8nExecution[]>;
	recentExecutions(limit?: number, filter?: Record<string, unknown>): Promise<N8nExecution[]>;
	getExecution(id: string): Promise<N8nExecution>;
	waitForExecution(id: string, timeoutMs?: number): Promise<N8nExecution>;
}

export declare function loginN8n(
	baseUrl: string,
	login: { email: string; password: string },
): Promise<N8nRestApi>;
export declare function nodeOutput(
	execution: N8nExecution,
	nodeName: string,
): Array<Record<string, any>> | undefined;
export declare function executionError(execution: N8nExecution): string | undefined;
