import { NodeConnectionTypes, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { toolCallFate } from '../../../shared/client/errorRules';
import { MessagingApiError } from '../../../shared/client/errors';

/*
 * A tool call that fails in a way the model can correct must reach it as an answer it can act on
 * ("Phone_Number must be …; call again"), and the run goes on. A service that could not be reached
 * just now (the client has already retried) is said to be temporary, so the model neither gives up
 * for good nor blames the settings. A failure no call can get past (a revoked key, a missing plan
 * or scope, a disconnected number, the day's sends used up, a Base URL that leads nowhere) must not
 * look like a working bot: the node throws its own error, worded so the model stops too, whatever
 * the tool's On Error says. n8n 1.x then fails the run; n8n 2.x hands the error to the model and
 * marks the tool's run as failed, and fails the run when the tool's On Error is Stop Workflow
 * (docs/ai-agent.md).
 */

const NOTHING_MORE =
	'No call of this tool can succeed until the owner of the workflow fixes this; stop calling it and tell the user.';

/** Why a temporary failure happened, in a few words for the model. */
const temporarily = (cause: string) =>
	`The service could not be reached just now (${cause}). This is temporary, not a fault of the call or of the settings: call this tool again in a moment with the same input (within this run a repeated call is carried out at most once); if it still fails, tell the user to try again later. Details:`;

/** Whether this run is an AI agent's tool call. */
export function runsAsToolCall(context: IExecuteFunctions): boolean {
	return context.getNode().rewireOutputLogTo === NodeConnectionTypes.AiTool;
}

/** The code and HTTP status a failure stands for: the client's error, or the node error made from it. */
function factsOf(error: unknown): { code?: string; status?: number } {
	if (error instanceof MessagingApiError) return { code: error.code, status: error.status };
	const response = (error as { errorResponse?: { code?: unknown; httpCode?: unknown } } | undefined)
		?.errorResponse;
	return {
		code: typeof response?.code === 'string' ? response.code : undefined,
		status: typeof response?.httpCode === 'number' ? response.httpCode : undefined,
	};
}

/**
 * The answer to a failed tool call: the error's message for the model (what n8n 2.x itself gives
 * it), led by "temporary" for a service not reached just now; or, for a failure only the owner can
 * fix, the node's error thrown with a last word for the model.
 */
export function failedToolCall(error: unknown): INodeExecutionData[][] {
	const { code, status } = factsOf(error);
	const fate = toolCallFate(code, status);
	if (fate === 'ownerMustFix' && error instanceof Error) {
		error.message = `${error.message} ${NOTHING_MORE}`;
		throw error;
	}
	const message = error instanceof Error ? error.message : String(error);
	if (fate === 'fixable') return [[{ json: { error: message } }]];
	const cause = status === undefined ? String(code) : `HTTP ${status}`;
	return [[{ json: { error: `${temporarily(cause)} ${message}` } }]];
}
