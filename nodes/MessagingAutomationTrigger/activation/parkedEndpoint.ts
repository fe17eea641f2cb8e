import type { IHookFunctions } from 'n8n-workflow';

import type { MessagingClient, WebhookEndpoint } from '../../shared/client';
import { activationError, isNotFound, isRefusal } from './activationErrors';
import type { RegisteredEndpoint } from '../state';

/*
 * An endpoint kept through a deactivation. The service's retries belong to an endpoint (its
 * deliveries are listed, resent and dropped with it, by id), so a deleted endpoint's handed-back
 * deliveries are never sent again, and a new endpoint at the same URL does not inherit them. When
 * the trigger hands held deliveries back as it stops listening (a deactivation, or a save, which
 * n8n 1.x does by deactivating and activating), it pauses its endpoint instead of deleting it: a
 * paused endpoint gets no requests and keeps its deliveries queued. The next activation at the
 * same URL resumes it (with the events now selected) and the retries run the held bursts; any
 * other outcome (Endpoint Created in the Dashboard, another URL) deletes it as before.
 */

/** Sameness of two event-type lists, whatever their order. */
export function sameSet(left: readonly string[], right: readonly string[]): boolean {
	const set = new Set(left);
	return set.size === new Set(right).size && right.every((value) => set.has(value));
}

/**
 * Pauses `stored` so the retries of `held` handed-back deliveries wait for the next activation.
 * False when it cannot be kept (gone already, or the service offers no pausing): the caller deletes.
 */
export async function parkEndpoint(
	hook: IHookFunctions,
	client: MessagingClient | undefined,
	stored: RegisteredEndpoint,
	held: number,
): Promise<boolean> {
	const deliveries = held === 1 ? '1 held delivery' : `${held} held deliveries`;
	const keptFor = `${deliveries} went back to the service, which sends its retries to this endpoint only`;
	try {
		if (!client) throw new Error('no API client is available');
		await client.webhooks.pause(stored.id);
	} catch (error) {
		if (isNotFound(error)) return false;
		if (isRefusal(error)) {
			hook.logger.warn(
				`Messaging Automation Trigger: the service refused to pause webhook endpoint ${stored.id} (HTTP ${String(error.status)}), so it is deleted: ${deliveries} went back to the service and will not be sent again; their bursts do not run.`,
			);
			return false;
		}
		hook.logger.warn(
			`Messaging Automation Trigger: webhook endpoint ${stored.id} could not be paused: ${(error as Error).message}. It is kept as it is (${keptFor}); the next activation resumes it.`,
		);
		return true;
	}
	hook.logger.info(
		`Messaging Automation Trigger: webhook endpoint ${stored.id} paused, not deleted: ${keptFor}. The next activation resumes it. If this workflow is not activated again, delete the endpoint in the dashboard (Developers → Webhooks).`,
	);
	return true;
}

/**
 * Resumes the parked endpoint for this activation (or the stopped one: stoppedEndpoint.ts), with
 * `eventTypes`. `ours` is what the service lists for this URL (undefined when listing was refused).
 * Undefined when it cannot be reused: the service lists it no more (deleted meanwhile) or refuses to
 * resume it; the caller then deletes it and registers anew.
 */
export async function resumeParked(
	hook: IHookFunctions,
	client: MessagingClient,
	parked: RegisteredEndpoint,
	ours: readonly WebhookEndpoint[] | undefined,
	eventTypes: readonly string[],
): Promise<RegisteredEndpoint | undefined> {
	const listed = ours?.find((endpoint) => endpoint.id === parked.id);
	if (ours && !listed) return undefined;
	const what = parked.parked
		? 'the webhook endpoint kept through the deactivation'
		: `the webhook endpoint ${parked.id} (${listed?.status ?? 'stopped'})`;
	try {
		if (!sameSet(listed?.event_types ?? parked.eventTypes, eventTypes))
			await client.webhooks.update(parked.id, { event_types: [...eventTypes] });
		if (listed?.status !== 'active') await client.webhooks.resume(parked.id);
	} catch (error) {
		if (isNotFound(error)) return undefined;
		if (isRefusal(error)) {
			hook.logger.warn(
				`Messaging Automation Trigger: the service refused to resume webhook endpoint ${parked.id} (HTTP ${String(error.status)}); it is replaced by a new one, and the deliveries it kept are not sent.`,
			);
			return undefined;
		}
		throw activationError(hook.getNode(), error, {
			action: `resuming ${what}`,
			url: parked.url,
		});
	}
	if (parked.parked)
		hook.logger.info(
			`Messaging Automation Trigger: webhook endpoint ${parked.id} resumed; the deliveries the service kept for it follow.`,
		);
	return {
		id: parked.id,
		url: parked.url,
		secret: parked.secret,
		eventTypes: [...eventTypes],
		test: false,
	};
}
