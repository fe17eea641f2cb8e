import type { IHookFunctions } from 'n8n-workflow';

import type { MessagingClient, WebhookEndpoint } from '../../shared/client';
import { decodeSecret } from '../../shared/webhooks/verifySignature';
import { createNodeClient } from '../../shared/transport/nodeClient';
import { activationError, isNotFound, isRefusal } from './activationErrors';
import { parkEndpoint, resumeParked, sameSet } from './parkedEndpoint';
import { endpointToResume, reportStopped } from './stoppedEndpoint';
import { readSettings } from '../settings';
import { TriggerState } from '../state';

/**
 * The hook's webhook URL is the test or the production one as n8n registers it (see state.ts).
 * `test` is only reliable in checkExists and create, which n8n runs in mode `manual` for tests.
 */
function scopeOf(hook: IHookFunctions) {
	const state = new TriggerState(hook.getWorkflowStaticData('node'));
	const test = hook.getMode() === 'manual';
	return {
		url: hook.getNodeWebhookUrl('default') ?? '',
		state,
		test,
		/** Stored endpoints of this kind (test or production), whatever their URL. */
		sameKind: state.endpoints().filter((endpoint) => endpoint.test === test),
	};
}

/** Live endpoints the service lists for our URL; undefined when listing is refused. */
async function listOurs(hook: IHookFunctions, client: MessagingClient, url: string) {
	try {
		const { data } = await client.webhooks.list();
		const all = Array.isArray(data?.webhooks) ? data.webhooks : [];
		return {
			all,
			ours: all.filter((endpoint) => endpoint.url === url && endpoint.status !== 'deleted'),
		};
	} catch (error) {
		if (!isRefusal(error))
			throw activationError(hook.getNode(), error, { action: 'listing webhook endpoints', url });
		hook.logger.warn(
			`Messaging Automation Trigger: the service refused to list webhook endpoints (HTTP ${String(error.status)}); relying on the endpoint stored with the workflow.`,
		);
		return undefined;
	}
}

/**
 * Deletes endpoints by id and returns those that are still registered. A 404 means the endpoint is
 * already gone. Any other failure is logged with what to do and the id is kept, so the next
 * activation tries again: nothing is ever forgotten while it may still exist.
 */
async function deleteEndpoints(
	hook: IHookFunctions,
	client: MessagingClient | undefined,
	ids: readonly string[],
): Promise<string[]> {
	const remaining: string[] = [];
	const keep = (id: string, reason: string) => {
		hook.logger.warn(
			`Messaging Automation Trigger: webhook endpoint ${id} could not be deleted: ${reason}. It may still be registered and sending events; delete it in the dashboard (Developers → Webhooks). The trigger will try again at its next activation.`,
		);
		remaining.push(id);
	};
	for (const id of ids) {
		if (!client) {
			keep(id, 'no API client is available');
			continue;
		}
		try {
			await client.webhooks.delete(id);
		} catch (error) {
			if (isNotFound(error)) continue;
			keep(
				id,
				isRefusal(error)
					? `the service refused the delete call (HTTP ${String(error.status)})`
					: (error as Error).message,
			);
		}
	}
	return remaining;
}

async function clientOrUndefined(hook: IHookFunctions): Promise<MessagingClient | undefined> {
	try {
		return await createNodeClient(hook);
	} catch (error) {
		hook.logger.warn(
			`Messaging Automation Trigger: no API client for cleaning up endpoints: ${(error as Error).message}`,
		);
		return undefined;
	}
}

/**
 * True only when exactly our stored endpoint is registered for this URL, active, with the selected
 * events, and nothing is left to clean up; anything else sends n8n to `create`, which reconciles.
 */
export async function endpointExists(hook: IHookFunctions): Promise<boolean> {
	const { url, state, sameKind } = scopeOf(hook);
	const { registration, eventTypes } = readSettings(hook);
	const nothingToClean =
		state.orphans().length === 0 && sameKind.every((endpoint) => endpoint.url === url);
	if (registration === 'dashboard') return nothingToClean && sameKind.length === 0;
	const stored = state.endpoint(url);
	if (!stored || stored.parked || !nothingToClean || !sameSet(stored.eventTypes, eventTypes))
		return false;
	const listing = await listOurs(hook, await createNodeClient(hook), url);
	if (!listing) return true;
	const [only, ...others] = listing.ours;
	return (
		others.length === 0 &&
		only?.id === stored.id &&
		only.status === 'active' &&
		sameSet(only.event_types ?? [], eventTypes)
	);
}

/** Creates the endpoint for `url`; `others` are the account's endpoints, named if the limit is hit. */
async function createEndpoint(
	hook: IHookFunctions,
	client: MessagingClient,
	url: string,
	eventTypes: readonly string[],
	others: readonly WebhookEndpoint[] | undefined,
): Promise<{ id: string; secret: string }> {
	const action = 'registering the webhook endpoint';
	let created: WebhookEndpoint;
	try {
		({ data: created } = await client.webhooks.create({ url, event_types: [...eventTypes] }));
	} catch (error) {
		throw activationError(hook.getNode(), error, { action, url, endpoints: others });
	}
	if (typeof created?.id !== 'string' || !decodeSecret(created.secret ?? '')) {
		throw activationError(
			hook.getNode(),
			new Error('the answer carried no endpoint id or no valid whsec_ signing secret'),
			{ action, url },
		);
	}
	return { id: created.id, secret: created.secret as string };
}

/**
 * Registers the endpoint for this URL: resumes the one parked at this URL by the last deactivation
 * (parkedEndpoint.ts) or the stored one the service disabled or someone paused (stoppedEndpoint.ts),
 * or creates one. Everything else that could be left from before (stored endpoints, earlier
 * undeletable ones, anything else the service lists for this exact URL, which holds the node's
 * unique webhook id) is deleted, so a re-activation never leaves an orphan and a stale endpoint
 * never takes up one of the ten places.
 */
export async function registerEndpoint(hook: IHookFunctions): Promise<boolean> {
	const { url, state, test, sameKind } = scopeOf(hook);
	const settings = readSettings(hook);
	// Nothing written before this activation is caught up (run/caughtUp.ts); a test run catches up nothing.
	if (!test) state.setActivatedAt(Date.now());
	const stale = new Set(state.orphans());
	// Every stored endpoint of the same kind is ours to replace, whatever its URL (after WEBHOOK_URL
	// changes, the endpoint for the old address must not linger), unless it is resumed below.
	for (const previous of sameKind) {
		stale.add(previous.id);
		state.setEndpoint(previous.url, undefined);
	}

	if (settings.registration === 'dashboard') {
		state.setOrphans(
			await deleteEndpoints(hook, stale.size > 0 ? await clientOrUndefined(hook) : undefined, [
				...stale,
			]),
		);
		return true;
	}

	const client = await createNodeClient(hook);
	const listing = await listOurs(hook, client, url);
	for (const endpoint of listing?.ours ?? []) stale.add(endpoint.id);
	const kept = endpointToResume(sameKind, url, listing?.ours, test);
	const resumed =
		kept && (await resumeParked(hook, client, kept.stored, listing?.ours, settings.eventTypes));
	if (kept?.stopped) await reportStopped(hook, client, kept.stopped, resumed !== undefined);
	if (resumed) stale.delete(resumed.id);
	state.setOrphans(await deleteEndpoints(hook, client, [...stale]));
	const others = listing?.all.filter((endpoint) => !stale.has(endpoint.id));
	const endpoint = resumed ?? {
		...(await createEndpoint(hook, client, url, settings.eventTypes, others)),
		url,
		eventTypes: [...settings.eventTypes],
		test,
	};
	state.setEndpoint(url, endpoint);
	return true;
}

/**
 * Never fails deactivation: what cannot be deleted is reported and kept for the next activation.
 * With `held` deliveries just handed back (or a parked endpoint not resumed since: n8n cleaning up
 * after a failed activation), the production endpoint is parked instead, for the retries.
 */
export async function unregisterEndpoint(hook: IHookFunctions, held: number): Promise<boolean> {
	// By URL, not kind: n8n deletes test endpoints in mode `internal`.
	const { url, state } = scopeOf(hook);
	const stored = state.endpoint(url);
	if (!stored) return true;
	const client = await clientOrUndefined(hook);
	if (
		!stored.test &&
		(stored.parked || (held > 0 && (await parkEndpoint(hook, client, stored, held))))
	) {
		state.setEndpoint(url, { ...stored, parked: true });
		return true;
	}
	const remaining = await deleteEndpoints(hook, client, [stored.id]);
	state.setOrphans([...state.orphans(), ...remaining]);
	state.setEndpoint(url, undefined);
	return true;
}
