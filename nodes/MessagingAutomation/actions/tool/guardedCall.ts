import { sleep } from 'n8n-workflow';

import { lookupTool } from '../../../shared/catalogue';
import { defaultOutcomeCheck } from '../../../shared/catalogue/defineTool';
import type { OutcomeLookup } from '../../../shared/catalogue/types';
import type { ApiResult } from '../../../shared/client/client';
import { finalWriteError } from '../../../shared/client/answer';
import { DailyLimitReachedError, MessagingApiError } from '../../../shared/client/errors';
import { isRecord } from '../../../shared/guards';
import { settle } from '../../helpers/settle';
import type { RunContext } from '../runContext';
import type { ToolSchema } from './toolSchema';

/*
 * A write whose outcome is uncertain (outcome_unknown, time-outs, dropped connections, answers the
 * API does not give, at any attempt) may or may not have happened. The service can tell, through
 * the look-ups the tool declares (ToolDefinition.outcomeCheck): get_operation (by operation id, or
 * by the idempotency key) and get_send_status for sends. What happened is reported as it is; what
 * the service says did not happen is sent again with the same key, which the service turns into a
 * replay if the first attempt did land after all. A new key is never used, and an item is never
 * reported as not done unless the service said so.
 */

export type ToolAnswer = ApiResult<Record<string, unknown>>;

export interface ToolCall {
	tool: ToolSchema;
	input: Record<string, unknown>;
	/** Set for writes; the same key is used for every retry and every outcome check. */
	idempotencyKey?: string;
}

const RESEND_ROUNDS = 3;
const PENDING_WAITS_MS = [1_000, 2_000, 4_000];
/** Writes only the live service describes: get_operation is the look-up every write has. */
const UNKNOWN_WRITE_CHECK = defaultOutcomeCheck('write', false);

type Verdict =
	| { kind: 'done'; data: Record<string, unknown>; requestId?: string }
	| { kind: 'pending'; operationId?: string }
	/** `notDone`: the service said so (status failed); otherwise it could not be asked. */
	| { kind: 'resend'; notDone: boolean; operationId?: string };

/** One request through the client, with the run's pacing and retry policy. */
async function send(run: RunContext, call: ToolCall): Promise<ToolAnswer> {
	return await run.client.callTool<Record<string, unknown>>(call.tool.name, call.input, {
		idempotencyKey: call.idempotencyKey,
		access: call.tool.access,
		inputSchema: call.tool.listing?.inputSchema,
		timeoutMs: run.timeoutMs,
	});
}

/** A look-up that may fail (the key may lack the tool): its tool name and answer, or undefined. */
async function ask(run: RunContext, lookup: OutcomeLookup, input: Record<string, unknown>) {
	const tool = lookupTool(lookup)?.name;
	if (!tool) return undefined;
	const answer = await settle(run.client.callTool<Record<string, unknown>>(tool, input, { access: 'read', timeoutMs: run.timeoutMs }));
	return answer.ok ? { tool, ...answer.value } : undefined;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

async function inspect(run: RunContext, call: ToolCall, error: MessagingApiError): Promise<Verdict> {
	const key = call.idempotencyKey as string;
	const lookups = call.tool.definition?.outcomeCheck ?? UNKNOWN_WRITE_CHECK;
	const lookup = error.operationId ? { operation_id: error.operationId } : { idempotencyKey: key };
	const operation = lookups.includes('operation') ? await ask(run, 'operation', lookup) : undefined;
	const status = operation?.data.status;
	const operationId = text(operation?.data.operation_id) ?? error.operationId;
	if (operation && status === 'succeeded') {
		const result = isRecord(operation.data.result) ? operation.data.result : {};
		const check = { tool: operation.tool, status, operationId };
		return { kind: 'done', data: { ...result, outcomeCheck: check }, requestId: operation.requestId };
	}
	if (status === 'pending') return { kind: 'pending', operationId };
	if (status !== 'failed' && lookups.includes('sendStatus')) {
		const sent = await ask(run, 'sendStatus', { idempotencyKey: key });
		const sendStatus = sent?.data.status;
		if (sent && typeof sendStatus === 'string' && sendStatus !== 'not_found') {
			const check = { tool: sent.tool, status: sendStatus };
			return { kind: 'done', data: { ...sent.data, outcomeCheck: check }, requestId: sent.requestId };
		}
		if (sendStatus === 'not_found') return { kind: 'resend', notDone: true, operationId };
	}
	return { kind: 'resend', notDone: status === 'failed', operationId };
}

/** The error an item ends with when nobody could say whether its write happened. */
function stillUnknown(call: ToolCall, first: MessagingApiError, last: MessagingApiError, operationId: string | undefined): MessagingApiError {
	const uncertain = finalWriteError(last, first);
	uncertain.operationId ??= operationId;
	const operation = uncertain.operationId ? ` (operation ${uncertain.operationId})` : '';
	uncertain.message = `${uncertain.message} It is still not known whether "${call.tool.name}" took effect${operation}: check it with Other › Get Operation Outcome, or rerun with the idempotency key ${String(call.idempotencyKey)} to complete it safely.`;
	return uncertain;
}

/** Checks an uncertain write and sends it again, with the same key, only while it is known not done. */
async function resolveOutcome(run: RunContext, call: ToolCall, first: MessagingApiError): Promise<ToolAnswer> {
	let error = first;
	let waits = 0;
	let rounds = 0;
	let operationId = first.operationId;
	while (rounds < RESEND_ROUNDS) {
		const verdict = await inspect(run, call, error);
		if (verdict.kind === 'done') {
			return { data: verdict.data, requestId: verdict.requestId, status: 200, attempts: error.attempts ?? 1, replayed: false, idempotencyKey: call.idempotencyKey };
		}
		operationId = verdict.operationId ?? operationId;
		if (verdict.kind === 'pending' && waits < PENDING_WAITS_MS.length) {
			await sleep(PENDING_WAITS_MS[waits++]);
			continue;
		}
		if (verdict.kind === 'pending') break;
		rounds++;
		const again = await settle(send(run, call));
		if (again.ok) return again.value;
		if (!(again.error instanceof MessagingApiError)) throw again.error;
		// A refusal of the resend proves nothing about the first attempt unless the service said it had not happened.
		if (again.error.actionTaken !== 'unknown' && verdict.notDone) throw again.error;
		error = again.error;
	}
	throw stillUnknown(call, first, error, operationId);
}

/**
 * A tool call that never acts twice and never reports a guess: QR sends stop once the daily limit
 * is reached, and a write whose outcome is uncertain is checked and, only if it did not happen,
 * sent again with the same key.
 */
export async function guardedCall(run: RunContext, call: ToolCall): Promise<ToolAnswer> {
	run.dailyLimit.check(call.tool.name, call.input);
	const sent = await settle(send(run, call));
	if (sent.ok) return sent.value;
	const { error } = sent;
	if (error instanceof DailyLimitReachedError) throw run.dailyLimit.record(call.tool.name, error);
	// The client marks failures after which the write may or may not have happened.
	if (call.idempotencyKey !== undefined && error instanceof MessagingApiError && error.actionTaken === 'unknown') {
		return await resolveOutcome(run, call, error);
	}
	throw error;
}
