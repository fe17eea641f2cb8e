import type { IHookFunctions } from 'n8n-workflow';

import type { MessagingClient, WebhookEndpoint } from '../../shared/client';
import {
	disabledBecause,
	failingSentence,
	reachAdvice,
} from '../../shared/webhooks/endpointProblem';
import type { RegisteredEndpoint } from '../state';

/*
 * The stored endpoint an activation finds stopped: disabled by the service (a 410, or 100 failures
 * in a row over three days) or paused by someone else while the workflow was active, most often
 * seen when n8n starts again after being down or unreachable. It is resumed rather than replaced
 * (the service's resume re-enables a disabled endpoint; parkedEndpoint.ts resumes it): a paused
 * one's queued deliveries then follow, and the dashboard keeps one endpoint's history of failures.
 * The activation says what had happened, with the last failure, in n8n's log.
 */

/**
 * The stored endpoint at `url` to resume rather than replace: the one the last deactivation parked,
 * or a production one the service lists (`ours`) as disabled or paused.
 */
export function endpointToResume(
	sameKind: readonly RegisteredEndpoint[],
	url: string,
	ours: readonly WebhookEndpoint[] | undefined,
	test: boolean,
): { stored: RegisteredEndpoint; stopped?: WebhookEndpoint } | undefined {
	const stored = sameKind.find((endpoint) => endpoint.url === url);
	if (!stored) return undefined;
	if (stored.parked) return { stored };
	const listed = ours?.find((endpoint) => endpoint.id === stored.id);
	if (test || (listed?.status !== 'disabled' && listed?.status !== 'paused')) return undefined;
	return { stored, stopped: listed };
}

/** The failing deliveries of `endpoint` in one sentence; none when the service will not list them. */
async function lastFailures(client: MessagingClient, endpoint: WebhookEndpoint): Promise<string> {
	try {
		const { data } = await client.webhooks.listDeliveries(endpoint.id);
		const sentence = failingSentence(
			endpoint,
			Array.isArray(data?.deliveries) ? data.deliveries : [],
		);
		return sentence ? ` ${sentence} ${reachAdvice(endpoint.url)}` : '';
	} catch {
		return '';
	}
}

/** Logs what stopped `endpoint`, what that cost, and whether it was `resumed` (else replaced). */
export async function reportStopped(
	hook: IHookFunctions,
	client: MessagingClient,
	endpoint: WebhookEndpoint,
	resumed: boolean,
): Promise<void> {
	const now = resumed
		? endpoint.status === 'paused'
			? 'It is resumed now, and the deliveries the service kept for it follow.'
			: 'It is re-enabled now.'
		: 'It is replaced by a new endpoint.';
	const prefix = `Messaging Automation Trigger: webhook endpoint ${endpoint.id}`;
	if (endpoint.status === 'paused') {
		hook.logger.warn(
			`${prefix} was paused outside this workflow (in the dashboard, or by another tool) while the workflow was active, so the service sent it nothing. ${now} To stop this workflow's events, deactivate the workflow instead.`,
		);
		return;
	}
	hook.logger.warn(
		`${prefix} had been disabled by the service${disabledBecause(endpoint)}; no events came while it was disabled, and those it had queued were dropped. ${now}${await lastFailures(client, endpoint)}`,
	);
}
