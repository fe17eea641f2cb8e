import { NodeConnectionTypes, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { ERROR_CODES } from '../../../shared/client/errorCodes';
import { MessagingApiError } from '../../../shared/client/errors';

/*
 * A tool call that fails in a way the model can correct must reach it as an answer it can act on
 * ("Phone_Number must be …; call again"), and the run goes on. A failure no call can get past (a
 * revoked key, a missing plan or scope, a disconnected number, the day's sends used up) must not
 * look like a working bot: the node throws its own error, worded so the model stops too. n8n 1.x
 * then fails the run; n8n 2.x hands the error to the model and marks the tool's run as failed, and
 * fails the run when the tool's On Error is Stop Workflow (docs/ai-agent.md).
 */

const NOTHING_MORE =
	'No call of this tool can succeed until the owner of the workflow fixes this; stop calling it and tell the user.';

/** Whether this run is an AI agent's tool call. */
export function runsAsToolCall(context: IExecuteFunctions): boolean {
	return context.getNode().rewireOutputLogTo === NodeConnectionTypes.AiTool;
}

/**
 * Whether a model calling the node as a tool can get past an error of `code`, as the error table
 * says. A code the table does not hold (a newer server's) goes back to the model, which may still
 * make sense of it.
 */
export function modelCanFix(code: string | undefined): boolean {
	if (code === undefined || !Object.prototype.hasOwnProperty.call(ERROR_CODES, code)) return true;
	return ERROR_CODES[code].modelCanFix;
}

/** The code a failure stands for: the client's error, or the node error made from it. */
function codeOf(error: unknown): string | undefined {
	if (error instanceof MessagingApiError) return error.code;
	const response = (error as { errorResponse?: { code?: unknown } } | undefined)?.errorResponse;
	return typeof response?.code === 'string' ? response.code : undefined;
}

/**
 * The answer to a failed tool call: the error's message for the model (what n8n 2.x itself gives
 * it), or, for a failure the model cannot fix, the node's error thrown with a last word for it.
 */
export function failedToolCall(error: unknown): INodeExecutionData[][] {
	if (!modelCanFix(codeOf(error)) && error instanceof Error) {
		error.message = `${error.message} ${NOTHING_MORE}`;
		throw error;
	}
	const message = error instanceof Error ? error.message : String(error);
	return [[{ json: { error: message } }]];
}
