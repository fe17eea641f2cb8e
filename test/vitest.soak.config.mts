import { defineConfig } from 'vitest/config';

import { common, ENGINE_SETUP, SOAK_TESTS } from './vitest.shared.mts';

/** `npm run test:soak`: the long acceptance runs, such as 1,000 sends through the chaos proxy. */
export default defineConfig({
	...common,
	test: { ...common.test, include: SOAK_TESTS, setupFiles: ENGINE_SETUP, testTimeout: 600_000 },
});
