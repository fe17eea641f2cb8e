import { defineConfig } from 'vitest/config';

// The real-n8n suite (ES module .mts files: they import the plain-ESM helpers that `npm run dev` shares): one sandbox and one n8n for all files (started in globalSetup), files in sequence
// because they share that n8n and the sandbox's per-key limits.
export default defineConfig({
	test: {
		root: new URL('../..', import.meta.url).pathname,
		include: ['test/e2e/**/*.test.mts'],
		globalSetup: ['test/e2e/globalSetup.mts'],
		environment: 'node',
		fileParallelism: false,
		pool: 'forks',
		testTimeout: 120_000,
		hookTimeout: 120_000,
		tags: [
			{
				// The per-line selection (docs/development.md#what-ci-runs-where): run.mjs runs only these
				// cases on an n8n other than the default, unless given --all.
				name: 'every-line',
				description:
					'at least one case per feature: what runs on every n8n line, not only on the default one (the rest runs there and in npm run test:e2e:all)',
			},
		],
	},
});
