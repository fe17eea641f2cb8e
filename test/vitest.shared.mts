import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

/** Long acceptance runs: `npm run test:soak` (vitest.soak.config.mts), not `npm test`. */
export const SOAK_TESTS = ['test/**/*.soak.test.ts'];
/** Tests that run the nodes in n8n's engine; they wait out a fiftieth of the real retry backoff. */
export const ENGINE_TESTS = [
	'test/nodes/MessagingAutomation/**/*.test.ts',
	'test/nodes/MessagingAutomationTrigger/**/*.test.ts',
	'test/nodes/MessagingAutomationChatMemory/**/*.test.ts',
];
export const SETUP = ['test/support/setupEnv.ts'];
export const ENGINE_SETUP = [...SETUP, 'test/support/shortBackoff.ts'];
/** For projects whose files share forks (isolate: false): none of them may reload the modules. */
export const SHARED_FORK = 'test/support/sharedFork.ts';

/** What every run shares: n8n's own packages, the test root, forks. */
export const common = defineConfig({
	// n8n-core loads n8n-workflow's CommonJS build; without this alias the tests would load its ESM
	// build beside it, and n8n's error classes (instanceof checks, error reporting) would exist twice.
	resolve: { alias: { 'n8n-workflow': require.resolve('n8n-workflow') } },
	test: {
		root: new URL('..', import.meta.url).pathname,
		environment: 'node',
		testTimeout: 60_000,
		hookTimeout: 60_000,
		pool: 'forks',
		// Much of the suite waits on loopback servers, so two forks keep both cores busy.
		maxWorkers: 2,
	},
});
