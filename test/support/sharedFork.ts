import { afterAll } from 'vitest';

import { MessagingApiError } from '../../nodes/shared/client/errors';

/*
 * The files of a fork that isolate: false shares load the package's modules once. A file that
 * calls vi.resetModules() there leaves every later file of the fork a second copy of them beside
 * whatever still holds the first (n8n's node types, a vi.mock, a singleton), and they fail by
 * the order the files happen to run in: an error class of one copy is not one of the other's.
 * Such a file gets modules of its own (ENGINE_OWN_MODULES or OWN_MODULES in vitest.config.mts);
 * this check fails it, not the file after it.
 */
afterAll(async () => {
	const current = await import('../../nodes/shared/client/errors.js');
	if (current.MessagingApiError !== MessagingApiError)
		throw new Error(
			'This file reloaded the modules (vi.resetModules) in a fork other test files share: list it in ENGINE_OWN_MODULES or OWN_MODULES (test/vitest.config.mts).',
		);
});
