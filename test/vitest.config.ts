import { defineConfig } from 'vitest/config';

export default defineConfig({
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
