import type { ApiResult } from '../../../shared/client/client';
import { DailyLimitReachedError, MessagingApiError } from '../../../shared/client/errors';
import { settle } from '../../helpers/settle';
import type { RunContext } from '../runContext';
import { resolveOutcome } from './outcome';
import type { ToolSchema } from './toolSchema';

export type ToolAnswer = ApiResult<Record<string, unknown>>;

export interface ToolCall {
	tool: ToolSchema;
	input: Record<string, unknown>;
	/** Set for writes; the same key is used for every retry and every outcome check. */
	idempotencyKey?: string;
}

/** Failures after which the write may or may not have happened: the client marks them. */
function isUncertain(error: unknown): error is MessagingApiError {
	return error instanceof MessagingApiError && error.actionTaken === 'unknown';
}

/** One request through the client, with the run's pacing and retry policy. */
export async function sendToolCall(run: RunContext, call: ToolCall): Promise<ToolAnswer> {
	return await run.client.callTool<Record<string, unknown>>(call.tool.name, call.input, {
		idempotencyKey: call.idempotencyKey,
		access: call.tool.access,
		inputSchema: call.tool.listing?.inputSchema,
		timeoutMs: run.timeoutMs,
	});
}

/**
 * A tool call that never acts twice and never reports a guess: QR sends stop once the daily limit
 * is reached, and a write whose outcome is uncertain is checked with get_operation /
 * get_send_status and, only if it did not happen, sent again with the same key.
 */
export async function callTool(run: RunContext, call: ToolCall): Promise<ToolAnswer> {
	run.dailyLimit.check(call.tool.name, call.input);
	const sent = await settle(sendToolCall(run, call));
	if (sent.ok) return sent.value;
	const { error } = sent;
	if (error instanceof DailyLimitReachedError) throw run.dailyLimit.record(call.tool.name, error);
	if (call.idempotencyKey !== undefined && isUncertain(error)) {
		return await resolveOutcome(run, call, error, async () => await sendToolCall(run, call));
	}
	throw error;
}
