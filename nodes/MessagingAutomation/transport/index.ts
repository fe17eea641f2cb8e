import { sleep, type IAllExecuteFunctions } from 'n8n-workflow';

import { MessagingClient } from '../../shared/client/client';
import { Pacer, type PacerBudgets } from '../../shared/client/pacer';
import type { RetryOptions } from '../../shared/client/retry';
import { createHttpRequestTransport } from '../../shared/transport/httpRequestTransport';
import { shortHash } from '../../shared/client/idempotency';
import { readServiceCredential } from '../../shared/transport/credential';

export interface ClientSettings {
	/** Proactive pacing for this execution; none for editor look-ups. */
	budgets?: PacerBudgets;
	timeoutMs?: number;
	retry?: Partial<RetryOptions>;
}

/** Editor look-ups answer at once: no retries, a short time-out, the catalogue as fallback. */
export const EDITOR_LOOKUP: ClientSettings = { timeoutMs: 10_000, retry: { maxAttempts: 1 } };

/** A client for one execution (or one editor look-up), sending through n8n's authenticated helper. */
export async function createClient(context: IAllExecuteFunctions, settings: ClientSettings = {}): Promise<MessagingClient> {
	const transport = await createHttpRequestTransport(context);
	const { secrets } = await readServiceCredential(context);
	return new MessagingClient({
		transport,
		sleep,
		timeoutMs: settings.timeoutMs,
		retry: settings.retry,
		secrets,
		pacer: settings.budgets ? new Pacer({ budgets: settings.budgets, now: () => Date.now(), sleep }) : undefined,
	});
}

/** Names the service and key a cached answer belongs to, without keeping the key or the base URL's secrets. */
export async function credentialFingerprint(context: IAllExecuteFunctions): Promise<string> {
	const { baseUrl, displayUrl, secrets } = await readServiceCredential(context);
	return `${displayUrl}#${shortHash([baseUrl, ...secrets].join('\n'), 16)}`;
}
