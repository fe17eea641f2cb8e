import { sleep, type IAllExecuteFunctions } from 'n8n-workflow';

import { MessagingClient, type PaceGate } from '../client/client';
import { Pacer, type PacerBudgets } from '../client/pacer';
import type { RetryOptions } from '../client/retry';
import { fingerprintOf, readServiceCredential } from './credential';
import { httpRequestTransport } from './httpRequestTransport';

/*
 * The one way both nodes get a client: the credential read once, requests through n8n's
 * authenticated helper, the key and the base URL's secrets kept out of every error.
 */

export interface ClientSettings {
	/** Proactive pacing for this execution; none for editor look-ups and webhook handlers. */
	budgets?: PacerBudgets;
	/** A pacer shared beyond one execution, by the credential's fingerprint (the trigger's reads per key). */
	sharedPacer?: (fingerprint: string) => PaceGate;
	timeoutMs?: number;
	retry?: Partial<RetryOptions>;
}

/** Editor look-ups answer at once: no retries, a short time-out, the catalogue as fallback. */
export const EDITOR_LOOKUP: ClientSettings = { timeoutMs: 10_000, retry: { maxAttempts: 1 } };

export async function createNodeClient(
	context: IAllExecuteFunctions,
	settings: ClientSettings = {},
): Promise<MessagingClient> {
	const credential = await readServiceCredential(context);
	return new MessagingClient({
		transport: httpRequestTransport(context, credential),
		sleep,
		timeoutMs: settings.timeoutMs,
		retry: settings.retry,
		secrets: credential.secrets,
		pacer: settings.sharedPacer
			? settings.sharedPacer(fingerprintOf(credential))
			: settings.budgets
				? new Pacer({ budgets: settings.budgets, now: () => Date.now(), sleep })
				: undefined,
	});
}
