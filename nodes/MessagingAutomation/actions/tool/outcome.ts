import { sleep } from 'n8n-workflow';

import { findTool } from '../../../shared/catalogue';
import { finalWriteError } from '../../../shared/client/answer';
import { MessagingApiError } from '../../../shared/client/errors';
import { isRecord } from '../../helpers/jsonSchema';
import { settle } from '../../helpers/settle';
import type { RunContext } from '../runContext';
import { OPERATION_TOOL, SEND_STATUS_TOOL } from '../toolGroups';
import type { ToolAnswer, ToolCall } from './callTool';

/*
 * A write whose outcome is uncertain (outcome_unknown, time-outs, dropped connections, answers the
 * API does not give, at any attempt) may or may not have happened. The service can tell:
 * get_operation (by operation id, or by the idempotency key) and get_send_status for sends. What
 * happened is reported as it is; what the service says did not happen is sent again with the same
 * key, which the service turns into a replay if the first attempt did land after all. A new key is
 * never used, and an item is never reported as not done unless the service said so.
 */

const RESEND_ROUNDS = 3;
const PENDING_WAITS_MS = [1_000, 2_000, 4_000];

type Verdict =
	| { kind: 'done'; data: Record<string, unknown>; requestId?: string }
	| { kind: 'pending'; operationId?: string }
	/** `notDone`: the service said so (status failed); otherwise it could not be asked. */
	| { kind: 'resend'; notDone: boolean; operationId?: string };

/** A read that may fail (the key may lack the tool): its answer, or undefined. */
async function ask(run: RunContext, tool: string, input: Record<string, unknown>) {
	const answer = await settle(run.client.callTool<Record<string, unknown>>(tool, input, { access: 'read', timeoutMs: run.timeoutMs }));
	return answer.ok ? answer.value : undefined;
}

function isSend(tool: string): boolean {
	return findTool(tool)?.countsAsSend ?? tool === 'send_message';
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

async function inspect(run: RunContext, call: ToolCall, error: MessagingApiError): Promise<Verdict> {
	const key = call.idempotencyKey as string;
	const lookup = error.operationId ? { operation_id: error.operationId } : { idempotencyKey: key };
	const operation = await ask(run, OPERATION_TOOL, lookup);
	const status = operation?.data.status;
	const operationId = text(operation?.data.operation_id) ?? error.operationId;
	if (operation && status === 'succeeded') {
		const result = isRecord(operation.data.result) ? operation.data.result : {};
		const check = { tool: OPERATION_TOOL, status, operationId };
		return { kind: 'done', data: { ...result, outcomeCheck: check }, requestId: operation.requestId };
	}
	if (status === 'pending') return { kind: 'pending', operationId };
	if (status !== 'failed' && isSend(call.tool.name)) {
		const send = await ask(run, SEND_STATUS_TOOL, { idempotencyKey: key });
		const sendStatus = send?.data.status;
		if (send && typeof sendStatus === 'string' && sendStatus !== 'not_found') {
			const check = { tool: SEND_STATUS_TOOL, status: sendStatus };
			return { kind: 'done', data: { ...send.data, outcomeCheck: check }, requestId: send.requestId };
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

export async function resolveOutcome(
	run: RunContext,
	call: ToolCall,
	first: MessagingApiError,
	resend: () => Promise<ToolAnswer>,
): Promise<ToolAnswer> {
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
		const again = await settle(resend());
		if (again.ok) return again.value;
		if (!(again.error instanceof MessagingApiError)) throw again.error;
		// A refusal of the resend proves nothing about the first attempt unless the service said it had not happened.
		if (again.error.actionTaken !== 'unknown' && verdict.notDone) throw again.error;
		error = again.error;
	}
	throw stillUnknown(call, first, error, operationId);
}
