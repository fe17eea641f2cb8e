import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
	// n8n-core loads n8n-workflow's CommonJS build; without this alias the tests would load its ESM
	// build beside it, and n8n's error classes (instanceof checks, error reporting) would exist twice.
	resolve: { alias: { 'n8n-workflow': require.resolve('n8n-workflow') } },
	test: {
		root: new URL('..', import.meta.url).pathname,
		include: ['test/**/*.test.ts'],
		exclude: ['test/e2e/**', 'node_modules/**'],
		environment: 'node',
		setupFiles: ['test/support/setupEnv.ts'],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		pool: 'forks',
	},
});
