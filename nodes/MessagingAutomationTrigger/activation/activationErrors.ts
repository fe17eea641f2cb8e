import { NodeOperationError, type INode } from 'n8n-workflow';

import {
	InsufficientPermissionError,
	InvalidApiKeyError,
	InvalidInputError,
	MessagingApiError,
	PlanRequiredError,
	ToolError,
	type WebhookEndpoint,
} from '../../shared/client';
import { NOT_THE_API } from '../../shared/client/answer';
import { ERROR_CODES } from '../../shared/client/errorCodes';

export const WEBHOOK_SCOPE = 'messenger.webhooks:manage';

const NO_FACTS = { said: '', quote: '', wait: '' };

const DASHBOARD_HINT =
	'Alternatively set Registration to "Endpoint Created in the Dashboard" and paste that endpoint\'s signing secret.';

/**
 * A management path the service does not offer (405 Method Not Allowed, 501 Not Implemented).
 * Such refusals must never break activation or deactivation, so callers warn and carry on.
 */
export function isRefusal(error: unknown): error is MessagingApiError {
	return error instanceof MessagingApiError && (error.status === 405 || error.status === 501);
}

export function isNotFound(error: unknown): boolean {
	return error instanceof MessagingApiError && error.status === 404;
}

function describeEndpoints(endpoints: readonly WebhookEndpoint[] | undefined): string {
	if (!endpoints?.length) return '';
	const lines = endpoints.map(
		(endpoint) => `${endpoint.id} (${endpoint.status}) → ${endpoint.url}`,
	);
	return ` Endpoints on the account now: ${lines.join('; ')}.`;
}

/**
 * Turns a failed management call into the activation error n8n shows, saying exactly what is
 * missing (scope, plan, room for another endpoint) and what to do about it.
 */
export function activationError(
	node: INode,
	error: unknown,
	context: { action: string; url?: string; endpoints?: readonly WebhookEndpoint[] },
): NodeOperationError {
	const said = error instanceof Error ? error.message : String(error);
	const fail = (message: string, description: string) =>
		new NodeOperationError(node, message, { description });

	// The same sentence as the action node and the credential test; the service's words below it.
	if (error instanceof InsufficientPermissionError) {
		const scope = error.scope ?? WEBHOOK_SCOPE;
		const sentence = ERROR_CODES.insufficient_permission.message?.({ scope, ...NO_FACTS }) ?? said;
		return fail(sentence, `${DASHBOARD_HINT} Service said: ${error.serviceMessage ?? said}`);
	}
	if (error instanceof PlanRequiredError || error instanceof InvalidApiKeyError)
		return fail(error.message, `Service said: ${error.serviceMessage ?? said}`);
	if (
		error instanceof ToolError &&
		error.status === 422 &&
		/\blimit\b|\bten\b|\b10\b/i.test(said)
	) {
		return fail(
			'The account already has the maximum of ten webhook endpoints',
			`No endpoint could be added for ${context.url ?? 'this workflow'}. Delete endpoints you no longer need in the dashboard (Developers → Webhooks), or deactivate workflows that use this trigger; a listening test URL also holds an endpoint.${describeEndpoints(context.endpoints)} Service said: ${said}`,
		);
	}
	if (error instanceof InvalidInputError && error.field === 'url') {
		return fail(
			`The service refused this workflow's webhook URL ${context.url ?? ''}`.trim(),
			`The service needs a public HTTPS address. Set n8n's WEBHOOK_URL to the public HTTPS address of this instance. Service said: ${said}`,
		);
	}
	// A 404 without the API's error body: most likely not the API at all (the credential test's words).
	if (isNotFound(error) && error instanceof MessagingApiError && error.code === 'http_404') {
		return fail(
			NOT_THE_API,
			`If the Base URL is right, the service does not offer ${context.action} through the API: ${DASHBOARD_HINT}`,
		);
	}
	if (isRefusal(error) || isNotFound(error)) {
		return fail(
			`The service does not offer ${context.action} through the API (HTTP ${String((error as MessagingApiError).status)})`,
			`Create the endpoint in the dashboard instead. ${DASHBOARD_HINT}`,
		);
	}
	if (error instanceof MessagingApiError) {
		const code = error.networkCode ? ` (${error.networkCode})` : '';
		return fail(said, `This happened during ${context.action}${code}.`);
	}
	return fail(`Could not complete ${context.action}`, said);
}
