import {
	ExecutionBaseError,
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type INode,
	type JsonObject,
} from 'n8n-workflow';

import { ERROR_CODES } from '../../shared/client/errorCodes';
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
		networkCode: error.networkCode,
		hint: ERROR_CODES[error.code]?.hint,
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
	if (error.serviceMessage && !error.message.includes(error.serviceMessage))
		lines.push(`Service said: ${error.serviceMessage}`);
	if (error.networkCode) lines.push(`Network error: ${error.networkCode}`);
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
