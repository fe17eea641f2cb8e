import { vi } from 'vitest';

/*
 * The nodes back off 500 ms, doubling up to 8 s, before retrying a dropped connection, a 503 or a
 * time-out. Tests that run the nodes in n8n's engine check how many attempts are made, with which
 * key and what the items say, never how long the waits were (test/nodes/shared/client/retry.test.ts
 * checks the real numbers): here the same policy waits a fiftieth as long, so a test that spends
 * all five attempts does not sleep for seconds. Typed against the real module, so renaming the
 * defaults fails the typecheck instead of quietly bringing the long waits back.
 */
vi.mock('../../nodes/shared/client/retry', async (importOriginal) => {
	const actual = await importOriginal<typeof import('../../nodes/shared/client/retry')>();
	const { baseDelayMs, maxDelayMs } = actual.DEFAULT_RETRY_OPTIONS;
	return { ...actual, DEFAULT_RETRY_OPTIONS: { ...actual.DEFAULT_RETRY_OPTIONS, baseDelayMs: baseDelayMs / 50, maxDelayMs: maxDelayMs / 50 } };
});
