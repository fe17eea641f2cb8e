import { vi } from 'vitest';

import { DEFAULT_RETRY_OPTIONS } from '../../nodes/shared/client/retry';

/*
 * The nodes back off 500 ms, doubling up to 8 s, before retrying a dropped connection, a 503 or a
 * time-out. Tests that run the nodes in n8n's engine check how many attempts are made, with which
 * key and what the items say, never how long the waits were (test/nodes/shared/client/retry.test.ts
 * checks the real numbers): here the same policy waits a fiftieth as long, so a test that spends
 * all five attempts does not sleep for seconds. Typed against the real module, so renaming the
 * defaults fails the typecheck instead of quietly bringing the long waits back.
 *
 * Shortened in place, not by vi.mock: a mocked module outlives vi.resetModules() holding the first
 * copy's functions, so after a reset the retry policy knew only the old copy's error classes and
 * retried nothing the new copy threw. This file runs before every test file and again in
 * reloadModules; frozen once shortened, a copy is never shortened twice.
 */
if (!Object.isFrozen(DEFAULT_RETRY_OPTIONS)) {
	DEFAULT_RETRY_OPTIONS.baseDelayMs /= 50;
	DEFAULT_RETRY_OPTIONS.maxDelayMs /= 50;
	Object.freeze(DEFAULT_RETRY_OPTIONS);
}

/** The package's code loaded afresh (n8n restarted), backing off as shortly as the first copy. */
export async function reloadModules(): Promise<void> {
	vi.resetModules();
	await import('./shortBackoff.js');
}
