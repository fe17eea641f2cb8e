import { sleep, type IAllExecuteFunctions } from 'n8n-workflow';

import { MessagingClient } from '../../shared/client/client';
import { Pacer, type PacerBudgets } from '../../shared/client/pacer';
import type { RetryOptions } from '../../shared/client/retry';
import { CREDENTIAL_TYPE, createHttpRequestTransport, trimBaseUrl } from '../../shared/transport/httpRequestTransport';
import { shortHash } from '../../shared/client/idempotency';

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
	const credentials = await context.getCredentials<{ apiKey?: string }>(CREDENTIAL_TYPE);
	return new MessagingClient({
		transport,
		sleep,
		timeoutMs: settings.timeoutMs,
		retry: settings.retry,
		secrets: credentials.apiKey ? [String(credentials.apiKey)] : [],
		pacer: settings.budgets ? new Pacer({ budgets: settings.budgets, now: () => Date.now(), sleep }) : undefined,
	});
}

/** Names the service and key a cached answer belongs to, without keeping the key itself. */
export async function credentialFingerprint(context: IAllExecuteFunctions): Promise<string> {
	const credentials = await context.getCredentials<{ apiKey?: string; baseUrl?: string }>(CREDENTIAL_TYPE);
	return `${trimBaseUrl(String(credentials.baseUrl ?? ''))}#${shortHash(String(credentials.apiKey ?? ''), 16)}`;
}
