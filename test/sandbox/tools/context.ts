import type { EventSink } from '../events';
import type { Limits } from '../limits';
import type { AccountState, ApiKey, Channel } from '../model';
import { SandboxApiError } from '../sandboxError';
import type { SandboxState } from '../state';

/** What a tool handler gets: the caller's account, validated input and the shared services. */
export interface ToolContext {
	state: SandboxState;
	account: AccountState;
	key: ApiKey;
	/** Input after schema validation (idempotencyKey included when the schema has it). */
	input: Record<string, unknown>;
	idempotencyKey: string | null;
	/** Set for write tools: the operation the result belongs to. */
	operationId: string | null;
	limits: Limits;
	events: EventSink;
	/** Where the server listens, for links it hands out (attachments, form previews). */
	baseUrl: string;
}

/** A handler's answer: the tool fields; the dispatcher adds operation_id to write results. */
export type ToolHandler = (ctx: ToolContext) => Record<string, unknown>;

export function toolError(message: string, extra: Record<string, unknown> = {}): SandboxApiError {
	return new SandboxApiError(422, 'tool_error', message, extra);
}

export function invalidInput(field: string, message: string): SandboxApiError {
	return new SandboxApiError(400, 'invalid_input', `${field} ${message}`, { field });
}

/** 409 whatsapp_not_connected: the identifier is given as issued (spec: Errors). */
export function notConnected(channel: Channel): SandboxApiError {
	return new SandboxApiError(
		409,
		'whatsapp_not_connected',
		`The ${channel} channel is not connected; check /api/v1/me and reconnect it in the dashboard.`,
	);
}

export function requireConnected(account: AccountState, channel: Channel): void {
	if (!account.channels[channel].connected) throw notConnected(channel);
}

export function str(input: Record<string, unknown>, field: string): string | undefined {
	const value = input[field];
	return typeof value === 'string' ? value : undefined;
}
