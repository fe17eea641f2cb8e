import { defineConfig } from 'vitest/config';

import { common, ENGINE_SETUP, SETUP, SOAK_TESTS } from './vitest.shared.mts';

/** The conversation simulator's long budget: the nodes' real retry backoff (virtual time costs nothing). */
const SIMULATOR_SOAK = ['test/nodes/MessagingAutomationTrigger/simulator/**/*.soak.test.ts'];

/**
 * `npm run test:soak`: the long acceptance runs, such as 1,000 sends through the chaos proxy and
 * the conversation simulator's 100,000 cases (two files, one per core).
 */
export default defineConfig({
	...common,
	test: {
		...common.test,
		projects: [
			{
				extends: true,
				test: {
					name: 'soak',
					include: SOAK_TESTS,
					exclude: ['node_modules/**', ...SIMULATOR_SOAK],
					setupFiles: ENGINE_SETUP,
					testTimeout: 600_000,
				},
			},
			{
				extends: true,
				test: {
					name: 'simulator-soak',
					include: SIMULATOR_SOAK,
					setupFiles: SETUP,
					// 50,000 cases a file at 30-100 cases a second.
					testTimeout: 3 * 3_600_000,
					isolate: true,
				},
			},
		],
	},
});
