import { defineConfig } from 'vitest/config';

import {
	common,
	ENGINE_SETUP,
	ENGINE_TESTS,
	SETUP,
	SHARED_FORK,
	SOAK_TESTS,
} from './vitest.shared.mts';

/**
 * Tests that need modules of their own: a vi.mock of node:crypto or of the catalogue's tool list
 * that the modules under test must import afresh, the trigger's in-process claims, which assume a
 * clock that never goes back, and its recent reads, counted on fake timers.
 */
const OWN_MODULES = [
	'test/nodes/shared/webhooks/verifySignature.test.ts',
	'test/nodes/MessagingAutomationTrigger/receive/dedupe.test.ts',
	'test/nodes/MessagingAutomationTrigger/hold/recentReads.test.ts',
	'test/nodes/shared/catalogue/addingATool.test.ts',
];
/**
 * Engine tests that load the node's code afresh (`vi.resetModules()`: restartN8n, reloadModules),
 * which must not leave a second copy of it to the files after them.
 */
const ENGINE_OWN_MODULES = [
	'test/nodes/MessagingAutomationTrigger/run/runClaim.test.ts',
	'test/nodes/MessagingAutomationTrigger/hold/heldDeliveries.unrecorded.test.ts',
	'test/nodes/MessagingAutomationTrigger/hold/heldDeliveries.handBack.test.ts',
	'test/support/shortBackoff.test.ts',
];
/**
 * The conversation simulator: fake timers for the whole file, and the trigger's code loaded afresh
 * for its webhook processes; the nodes' real retry backoff (virtual time costs nothing).
 */
const SIMULATOR = ['test/nodes/MessagingAutomationTrigger/simulator/**/*.test.ts'];
const NOT_HERE = ['test/e2e/**', 'node_modules/**', ...SOAK_TESTS];

/*
 * `npm test`. Files of one fork share their modules (isolate: false), so n8n-core is imported once
 * per fork, not once per file; every test file starts its own sandbox and engine.
 */
export default defineConfig({
	...common,
	test: {
		...common.test,
		projects: [
			{
				extends: true,
				test: {
					name: 'engine',
					include: ENGINE_TESTS,
					exclude: [...NOT_HERE, ...OWN_MODULES, ...ENGINE_OWN_MODULES, ...SIMULATOR],
					setupFiles: [...ENGINE_SETUP, SHARED_FORK],
					isolate: false,
				},
			},
			{
				extends: true,
				test: {
					name: 'engine-own-modules',
					include: ENGINE_OWN_MODULES,
					setupFiles: ENGINE_SETUP,
					isolate: true,
				},
			},
			{
				extends: true,
				test: {
					name: 'unit',
					include: ['test/**/*.test.ts'],
					exclude: [...NOT_HERE, ...OWN_MODULES, ...ENGINE_TESTS, ...ENGINE_OWN_MODULES],
					setupFiles: [...SETUP, SHARED_FORK],
					isolate: false,
				},
			},
			{
				extends: true,
				test: {
					name: 'simulator',
					include: SIMULATOR,
					exclude: NOT_HERE,
					setupFiles: SETUP,
					isolate: true,
				},
			},
			{
				extends: true,
				test: { name: 'own-modules', include: OWN_MODULES, setupFiles: SETUP, isolate: true },
			},
		],
	},
});
