import { expect, it } from 'vitest';

import { reloadModules } from './shortBackoff';

/*
 * The engine tests' short backoff holds for a copy of the code loaded afresh (restartN8n): the
 * copy's retry policy knows the copy's own error classes. Under a vi.mock of ./retry it did not,
 * and a trigger restarted in a test retried nothing (nor, in a fork other files shared, did any
 * node of the files after it). Reloads the modules, so in ENGINE_OWN_MODULES.
 */

const load = async () => ({
	retry: await import('../../nodes/shared/client/retry.js'),
	errors: await import('../../nodes/shared/client/errors.js'),
});

it('a copy of the code loaded afresh retries its own 503s, a fiftieth as long as the real backoff', async () => {
	const first = await load();
	await reloadModules();
	const fresh = await load();
	expect(fresh.errors.ToolError).not.toBe(first.errors.ToolError);
	const unavailable = new fresh.errors.ToolError('unavailable', {
		code: 'tool_error',
		status: 503,
	});
	const { retryDecision, DEFAULT_RETRY_OPTIONS } = fresh.retry;
	expect(DEFAULT_RETRY_OPTIONS).toMatchObject({ baseDelayMs: 10, maxDelayMs: 160 });
	expect(retryDecision(unavailable, 1, DEFAULT_RETRY_OPTIONS, () => 0.5)).toEqual({
		retry: true,
		delayMs: 5,
	});
});
