import {
	ExecutionBaseError,
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type INode,
	type JsonObject,
} from 'n8n-workflow';

import {
	formatDuration,
	InputValidationError,
	MessagingApiError,
} from '../../shared/client/errors';

/*
 * How failures reach the user: NodeApiError with the API's code and message, the request id,
 * retry_after and upgrade_url, and a hint of what to do; under Continue On Fail the same fields
 * go into the item's `error`. The client has already removed the API key from every text.
 */

const HINTS: Record<string, string> = {
	invalid_api_key: 'Open the Messaging Automation credential and paste an active API key.',
	insufficient_permission:
		'Give the key the scope this call needs (or give inbox storage consent) in the dashboard.',
	plan_required: 'Upgrade the account to the plan that includes API keys and webhooks.',
	unknown_tool: 'Choose another operation, or give the key the scope this tool needs.',
	invalid_input: 'Fix the named field; nothing was done.',
	input_validation: 'Correct the named field and run the node again.',
	rate_limited:
		'Wait for the Retry-After time, or lower the Rate Limit Budget option when other workflows share the key.',
	daily_limit_reached:
		'Send again after 00:00 UTC, or use the Business channel, which has no daily cap from the service.',
	whatsapp_not_connected:
		'Reconnect the number in the dashboard; Account › Get shows which channels are connected.',
	tool_error: 'Check the input and the account state; quote the request id if you contact support.',
	outcome_unknown:
		'Rerun with the same idempotency key, or check it with Other › Get Operation Outcome; never resend with a new key.',
	timeout:
		'Rerun with the same idempotency key: the service then answers with the first result instead of acting twice.',
	connection_error: 'Check the Base URL and the network, then rerun with the same idempotency key.',
	connection_refused: 'Check the Base URL and the network; nothing reached the service.',
	response_interrupted:
		'Rerun with the same idempotency key, or check it with Other › Get Operation Outcome; never resend with a new key.',
	invalid_response:
		'Something between n8n and the service answered; check proxies, then rerun with the same idempotency key.',
	unexpected_redirect:
		'Set the Base URL to the address the service really answers on; redirects are never followed with the key.',
	outcome_uncertain:
		'Check it with Other › Get Operation Outcome, or rerun with the same idempotency key; never resend with a new key.',
};

/** Everything a workflow may want to branch on, as plain JSON. */
export function errorDetails(error: MessagingApiError): IDataObject {
	const details: IDataObject = { code: error.code, message: error.message };
	const optional: IDataObject = {
		httpCode: error.status,
		requestId: error.requestId,
		retryAfter: error.retryAfter,
		upgradeUrl: error.upgradeUrl,
		field: error.field,
		operationId: error.operationId,
		idempotencyKey: error.idempotencyKey,
		actionTaken: error.actionTaken,
		hint: HINTS[error.code],
	};
	for (const [name, value] of Object.entries(optional))
		if (value !== undefined) details[name] = value;
	return details;
}

/**
 * The details under the message: the facts to quote or branch on. What to do is said once, in the
 * message itself, so neither the advice nor a wait already named there is repeated.
 */
function describe(error: MessagingApiError): string {
	const lines = [
		`Error code: ${error.code}${error.status === undefined ? '' : ` (HTTP ${error.status})`}`,
	];
	if (error.requestId) lines.push(`Request ID: ${error.requestId}`);
	const wait = error.retryAfter === undefined ? undefined : formatDuration(error.retryAfter);
	if (wait !== undefined && !error.message.includes(wait))
		lines.push(`Retry after: ${wait} (${error.retryAfter} s)`);
	if (error.upgradeUrl) lines.push(`Upgrade: ${error.upgradeUrl}`);
	if (error.field) lines.push(`Field: ${error.field}`);
	if (error.operationId) lines.push(`Operation ID: ${error.operationId}`);
	if (error.idempotencyKey) lines.push(`Idempotency key: ${error.idempotencyKey}`);
	return lines.join('\n');
}

/** The error n8n shows for a failure of item `itemIndex`. */
export function toNodeError(node: INode, error: unknown, itemIndex: number): ExecutionBaseError {
	if (error instanceof ExecutionBaseError) return error;
	if (error instanceof InputValidationError) {
		return new NodeOperationError(node, error.message, { itemIndex, description: describe(error) });
	}
	if (error instanceof MessagingApiError) {
		return new NodeApiError(node, errorDetails(error) as JsonObject, {
			message: error.message,
			description: describe(error),
			httpCode: error.status === undefined ? undefined : String(error.status),
			itemIndex,
		});
	}
	const message = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(node, message, { itemIndex });
}

/** The `json.error` of an item under Continue On Fail. */
export function errorJson(error: unknown): IDataObject {
	if (error instanceof MessagingApiError) return errorDetails(error);
	const message = error instanceof Error ? error.message : String(error);
	const description = (error as { description?: unknown })?.description;
	return typeof description === 'string' && description !== ''
		? { message, description }
		: { message };
}
