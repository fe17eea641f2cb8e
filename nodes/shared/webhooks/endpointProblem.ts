import {
	MessagingApiError,
	type MessagingClient,
	type WebhookDelivery,
	type WebhookEndpoint,
} from '../client';

/*
 * What stops a registered endpoint from bringing the workflow its events, in the words of a user
 * who has to act on it. While a workflow is active nothing calls its trigger, so the service's
 * record of the endpoint is the only place to notice that it was disabled (a 410, or 100 failures
 * in a row over three days: spec, Delivery 3), paused by someone, deleted, or that its deliveries
 * fail. The trigger says it when it activates (registration.ts); a polling node can say it between.
 */

const DASHBOARD = 'the dashboard (Developers → Webhooks)';
/** What to check when the service cannot deliver to `url`. */
export const reachAdvice = (url: string) =>
	`Make sure the service can reach ${url}: n8n running, and n8n's WEBHOOK_URL set to this instance's public HTTPS address.`;

/** A delivery with at least this many attempts and no success has failed for ~13 minutes (30 s, 2 min, 10 min). */
const FAILING_ATTEMPTS = 4;

/** Why the service disabled `endpoint`, from its `disabled_reason`: " because …", or "" when unknown. */
export function disabledBecause(endpoint: WebhookEndpoint): string {
	if (endpoint.disabled_reason === 'gone')
		return ` because ${endpoint.url} answered 410 Gone, which disables an endpoint at once`;
	if (endpoint.disabled_reason === 'consecutive_failures')
		return ' after 100 failed deliveries in a row over three days';
	return endpoint.disabled_reason ? ` (reason: ${endpoint.disabled_reason})` : '';
}

/** What a delivery's last attempt got, in words: the status code, else the error (no answer). */
function outcomeOf(delivery: WebhookDelivery): string {
	if (delivery.last_status_code !== null) return `HTTP ${delivery.last_status_code}`;
	return delivery.last_error ?? 'no answer';
}

/**
 * The deliveries that failed for good or for ~13 minutes, newer than any that succeeded: the
 * endpoint fails now. One handed back on purpose (a held burst's 503) is retried and succeeds long
 * before, so it never counts; nor does a failure that a later delivery's success followed.
 */
export function failingDeliveries(deliveries: readonly WebhookDelivery[]): WebhookDelivery[] {
	const newestSuccess = Math.max(
		...deliveries
			.filter((delivery) => delivery.status === 'delivered')
			.map((delivery) => Date.parse(delivery.created_at)),
	);
	return deliveries.filter(
		(delivery) =>
			delivery.status !== 'delivered' &&
			(delivery.status === 'failed' || delivery.attempts >= FAILING_ATTEMPTS) &&
			!(Date.parse(delivery.created_at) < newestSuccess),
	);
}

/** The sentence on failing deliveries of `endpoint`, with the newest one's error; undefined when none fail. */
export function failingSentence(
	endpoint: WebhookEndpoint,
	deliveries: readonly WebhookDelivery[],
): string | undefined {
	const failing = failingDeliveries(deliveries);
	if (failing.length === 0) return undefined;
	const newest = failing.reduce((a, b) =>
		Date.parse(b.created_at) > Date.parse(a.created_at) ? b : a,
	);
	const lost = failing.filter((delivery) => delivery.status === 'failed').length;
	const events = failing.length === 1 ? '1 event' : `${failing.length} events`;
	const attempts = newest.attempts === 1 ? '1 attempt' : `${newest.attempts} attempts`;
	return (
		`Deliveries to ${endpoint.url} are failing: ${events} not delivered (the newest after ${attempts}: ${outcomeOf(newest)})` +
		`${lost > 0 ? `, ${lost} of them failed for good` : ''}.`
	);
}

const gone = (error: unknown) => error instanceof MessagingApiError && error.status === 404;
/** A management path the service does not offer: nothing can be told from it. */
const refused = (error: unknown) =>
	error instanceof MessagingApiError && (error.status === 405 || error.status === 501);

/** A read that failed: what the service refused or could not do, in one sentence of words. */
function failedRead(endpointId: string, error: unknown): string | undefined {
	if (refused(error)) return undefined;
	if (gone(error))
		return `The webhook endpoint ${endpointId} this workflow registered no longer exists (deleted in ${DASHBOARD}?), so no events arrive. Deactivate and activate the workflow (unpublish and publish it on n8n 2.x) to register a new one.`;
	return `Could not check this workflow's webhook endpoint ${endpointId}: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * What keeps the endpoint `endpointId` from delivering, as one message saying what to do; undefined
 * when nothing does, or when the service offers no way to tell (405, 501). A read that fails
 * otherwise (a bad key, the service down) is said as the problem it is. Costs one read, two when
 * the endpoint is active (its deliveries).
 */
export async function endpointProblem(
	client: MessagingClient,
	endpointId: string,
): Promise<string | undefined> {
	let endpoint: WebhookEndpoint;
	try {
		({ data: endpoint } = await client.webhooks.get(endpointId));
	} catch (error) {
		return failedRead(endpointId, error);
	}
	if (endpoint.status === 'disabled')
		return `The service disabled this workflow's webhook endpoint ${endpoint.id}${disabledBecause(endpoint)}, so no events arrive; those it had queued were dropped. ${reachAdvice(endpoint.url)} Then resume the endpoint in ${DASHBOARD}, or deactivate and activate the workflow (unpublish and publish it on n8n 2.x).`;
	if (endpoint.status === 'paused')
		return `This workflow's webhook endpoint ${endpoint.id} is paused (in ${DASHBOARD}, or by another tool): the service keeps its events queued and sends none. Resume it in ${DASHBOARD}.`;
	if (endpoint.status !== 'active') return undefined;
	let deliveries: WebhookDelivery[];
	try {
		const { data } = await client.webhooks.listDeliveries(endpoint.id);
		deliveries = Array.isArray(data?.deliveries) ? data.deliveries : [];
	} catch (error) {
		return failedRead(endpointId, error);
	}
	const failing = failingSentence(endpoint, deliveries);
	if (!failing) return undefined;
	return `${failing} The service retries each for about a day, then gives up, and disables the endpoint after 100 failures in a row over three days. ${reachAdvice(endpoint.url)} Then resend the failed deliveries in ${DASHBOARD}.`;
}
