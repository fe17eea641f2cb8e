import { formatIssues, validateToolInput } from '../../nodes/shared/catalogue/validate';
import type { Caller } from './auth';
import type { EventSink } from './events';
import type { ActiveFault, Faults } from './faults';
import { IdempotencyStore, fingerprint, resolveIdempotencyKey } from './idempotency';
import { rateLimited, type Limits } from './limits';
import { permittedTool, type SandboxTool } from './registry';
import { SandboxApiError } from './sandboxError';
import type { SandboxState } from './state';
import { notConnected, requireConnected } from './tools/context';

export interface DispatchDeps {
	state: SandboxState;
	limits: Limits;
	faults: Faults;
	idempotency: IdempotencyStore;
	events: EventSink;
	baseUrl: () => string;
}

export interface ToolCallRequest {
	caller: Caller;
	tool: string;
	/** Reads and checks the body; throws the 415/413/400 errors. */
	body: () => Record<string, unknown>;
	headerKey: string | undefined;
}

/** What the server sends back, and how: `drop` destroys the socket, `delayMs` holds the answer. */
export interface ToolCallOutcome {
	status: number;
	body: unknown;
	headers: Record<string, string>;
	drop: boolean;
	delayMs: number;
}

interface Prepared {
	tool: SandboxTool;
	input: Record<string, unknown>;
	key: string | null;
}

function prepare(
	deps: DispatchDeps,
	request: ToolCallRequest,
	note: (input: unknown, key: string | null) => void,
): Prepared {
	const tool = permittedTool(request.tool, request.caller);
	deps.limits.takeCall(request.caller.key.id, tool.def.access);
	const body = request.body();
	note(body, null);
	// Read tools may carry `idempotencyKey` as a lookup field (get_send_status); only writes are keyed.
	const write = tool.def.access === 'write';
	const key = write ? resolveIdempotencyKey(body, request.headerKey, true) : null;
	note(body, key);
	const withKey =
		key !== null && 'idempotencyKey' in tool.def.input.shape
			? { ...body, idempotencyKey: key }
			: body;
	const result = validateToolInput(tool.def, withKey);
	if (!result.ok) {
		const first = result.issues[0];
		throw new SandboxApiError(400, 'invalid_input', formatIssues(result.issues), {
			field: first?.path || 'input',
			errors: result.issues,
		});
	}
	return { tool, input: result.data as Record<string, unknown>, key };
}

function faultError(fault: ActiveFault, tool: SandboxTool): SandboxApiError | null {
	switch (fault.kind) {
		case 'toolError503':
			return new SandboxApiError(
				503,
				'tool_error',
				`${tool.def.name} is temporarily unavailable; retry with the same idempotency key.`,
			);
		case 'toolError422':
			return new SandboxApiError(422, 'tool_error', `${tool.def.name} failed (injected fault).`);
		case 'notConnected':
			return notConnected(tool.needsConnection ?? 'qr');
		case 'rateLimited':
			// As when other processes or workflows spent the key's minute: wait a second.
			return rateLimited(1, 'Too many read calls for this key (injected fault)');
		default:
			return null;
	}
}

/** Runs the handler once and records the operation, effect and idempotent result. */
function execute(
	deps: DispatchDeps,
	caller: Caller,
	prepared: Prepared,
	operationId: string | null,
): Record<string, unknown> {
	const { tool, input, key } = prepared;
	const { state } = deps;
	const record = (status: 'succeeded' | 'failed', extra: object) => {
		if (operationId) {
			state.operations.set(operationId, {
				id: operationId,
				accountId: caller.account.id,
				tool: tool.def.name,
				status,
				idempotencyKey: key,
				at: state.clock.now(),
				...extra,
			});
		}
	};
	try {
		if (tool.needsConnection) requireConnected(caller.account, tool.needsConnection);
		const result = tool.handler({
			state,
			account: caller.account,
			key: caller.key,
			input,
			idempotencyKey: key,
			operationId,
			limits: deps.limits,
			events: deps.events,
			baseUrl: deps.baseUrl(),
		});
		const body = operationId ? { ...result, operation_id: operationId } : result;
		record('succeeded', { result: body });
		if (operationId) {
			state.recordEffect(
				caller.account.id,
				tool.def.name,
				operationId,
				JSON.stringify(body).slice(0, 300),
			);
			if (key)
				deps.idempotency.save(caller.account.id, key, {
					fingerprint: fingerprint(tool.def.name, input),
					tool: tool.def.name,
					status: 200,
					body,
				});
		}
		return body;
	} catch (error) {
		if (error instanceof SandboxApiError)
			record('failed', { error: { code: error.code, message: error.message } });
		throw error;
	}
}

/** The whole life of one POST /api/v1/tools/<name>, recorded for `calls()` whatever the outcome. */
export function dispatchTool(deps: DispatchDeps, request: ToolCallRequest): ToolCallOutcome {
	const { state } = deps;
	const call = {
		tool: request.tool,
		keyName: request.caller.key.name,
		idempotencyKey: null as string | null,
		input: undefined as unknown,
		status: 200,
		errorCode: undefined as string | undefined,
		replayed: false,
		at: state.iso(),
	};
	const outcome: ToolCallOutcome = { status: 200, body: {}, headers: {}, drop: false, delayMs: 0 };
	try {
		const prepared = prepare(deps, request, (input, key) => {
			call.input = input;
			call.idempotencyKey = key;
		});
		const { tool, input, key } = prepared;
		const stored = key
			? deps.idempotency.lookup(request.caller.account.id, key, fingerprint(tool.def.name, input))
			: undefined;
		const fault = deps.faults.take(tool.def.name);
		const injected = fault ? faultError(fault, tool) : null;
		if (injected) throw injected;
		outcome.drop = fault?.kind === 'dropAfterCommit';
		outcome.delayMs = fault?.kind === 'delay' ? fault.delayMs : 0;
		if (stored) {
			call.replayed = true;
			outcome.body = stored.body;
			outcome.headers['Idempotent-Replayed'] = 'true';
		} else if (fault?.kind === 'outcomeUnknown') {
			throw outcomeUnknown(deps, request.caller, prepared, fault.commit);
		} else {
			outcome.body = execute(
				deps,
				request.caller,
				prepared,
				tool.def.access === 'write' ? state.ids.prefixed('op_', 10) : null,
			);
		}
	} catch (error) {
		if (!(error instanceof SandboxApiError)) throw error;
		outcome.status = error.status;
		outcome.body = error.toBody();
		outcome.headers = { ...error.headers };
		call.errorCode = error.code;
	}
	call.status = outcome.status;
	state.calls.push(call);
	return outcome;
}

/** 409 outcome_unknown; get_operation and get_send_status still tell the truth afterwards. */
function outcomeUnknown(
	deps: DispatchDeps,
	caller: Caller,
	prepared: Prepared,
	commit: boolean,
): SandboxApiError {
	const operationId = deps.state.ids.prefixed('op_', 10);
	if (commit) {
		execute(deps, caller, prepared, operationId);
	} else {
		deps.state.operations.set(operationId, {
			id: operationId,
			accountId: caller.account.id,
			tool: prepared.tool.def.name,
			status: 'failed',
			error: {
				code: 'not_executed',
				message: 'The operation was not carried out; retry with the same idempotency key.',
			},
			idempotencyKey: prepared.key,
			at: deps.state.clock.now(),
		});
	}
	return new SandboxApiError(
		409,
		'outcome_unknown',
		'The result is uncertain; inspect get_operation or get_send_status before retrying, and never resend with a new key.',
		{ operation_id: operationId },
	);
}
