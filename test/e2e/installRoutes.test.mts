import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, PACKAGE_NAME, startN8n } from '../support/n8nProcess.mjs';
import { loginN8n } from '../support/n8nRestApi.mjs';
import { e2e } from './support/context.mjs';
import { startLocalRegistry, type LocalRegistry } from './support/localRegistry.mjs';
import { provePackageWorks } from './support/packageProof.mjs';
import { REGISTRY_HOST, startRegistryProxy, type RegistryProxy } from './support/registryProxy.mjs';

// The two ways people install the package without copying files: n8n's own installer (Settings →
// Community Nodes → Install, the REST call behind it) and N8N_COMMUNITY_PACKAGES at start-up. Both run
// `npm` inside n8n against the registry: here a local Verdaccio holding the package as published, reached
// through a local HTTPS proxy (see registryProxy.mts for why). Each starts its own fresh n8n without the
// package; the suite's n8n and sandbox stay as they are. In the regular variant only; the env-managed
// route exists from n8n 2.x on.
const { mode, n8nVersion } = e2e();
const skipReason = mode !== 'regular' ? 'runs once per n8n version, in the regular variant' : '';
const noEnvManaged = n8nVersion.startsWith('1.');
const folder = join(
	process.env.E2E_RUN_DIR ?? join(process.cwd(), '.cache', 'e2e', `run-${process.pid}`),
	'install-routes',
);

describe.skipIf(skipReason)('install routes: n8n installs the package from a registry', () => {
	let registry: LocalRegistry;
	let proxy: RegistryProxy;
	let version: string;
	const stops: Array<() => Promise<void>> = [];

	beforeAll(async () => {
		registry = await startLocalRegistry(join(folder, 'registry'));
		stops.push(() => registry.stop());
		version = await registry.publishPackage();
		proxy = await startRegistryProxy(registry.url, join(folder, 'proxy'));
		stops.push(() => proxy.stop());
	}, 180_000);

	afterAll(async () => {
		for (const stop of stops.reverse()) await stop();
	});

	/** A fresh n8n without the package, its registry traffic sent through the proxy. */
	async function freshN8n(name: string, extraEnv: Record<string, string> = {}) {
		const n8n = await startN8n({
			userFolder: join(folder, name),
			fresh: true,
			installPackage: false,
			extraEnv: { ...proxy.env(), ...extraEnv },
		});
		stops.push(() => n8n.stop());
		return { n8n, api: await loginN8n(n8n.url, OWNER) };
	}

	const tarballFetches = () =>
		proxy.requests.filter((line) => line.startsWith(`GET /${PACKAGE_NAME}/-/`));

	it(
		'Settings → Community Nodes → Install: n8n downloads, loads and records the package',
		{ tags: ['every-line'], timeout: 300_000 },
		async () => {
			const { n8n, api } = await freshN8n('n8n-ui-install');
			const before = tarballFetches().length;
			const installed = (await api.request('POST', '/community-packages', {
				name: PACKAGE_NAME,
			})) as {
				packageName: string;
				installedVersion: string;
				installedNodes: Array<{ type: string }>;
			};
			expect(installed).toEqual(
				expect.objectContaining({ packageName: PACKAGE_NAME, installedVersion: version }),
			);
			expect(installed.installedNodes.map((node) => node.type).sort()).toEqual([
				`${PACKAGE_NAME}.messagingAutomation`,
				`${PACKAGE_NAME}.messagingAutomationCatchUp`,
				`${PACKAGE_NAME}.messagingAutomationChatMemory`,
				`${PACKAGE_NAME}.messagingAutomationTrigger`,
			]);
			expect(tarballFetches().length).toBeGreaterThan(before);
			await provePackageWorks(api, n8n.url);
			await n8n.stop();
		},
	);

	it.skipIf(noEnvManaged)(
		'N8N_COMMUNITY_PACKAGES with N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: installed at start-up',
		async () => {
			const before = tarballFetches().length;
			const { n8n, api } = await freshN8n('n8n-env-install', {
				N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
				N8N_COMMUNITY_PACKAGES: JSON.stringify([{ name: PACKAGE_NAME, version }]),
			});
			expect(tarballFetches().length).toBeGreaterThan(before);
			const listed = (await api.request('GET', '/community-packages')) as Array<{
				packageName: string;
				installedVersion: string;
			}>;
			expect(listed).toEqual([
				expect.objectContaining({ packageName: PACKAGE_NAME, installedVersion: version }),
			]);
			await provePackageWorks(api, n8n.url);
			// Nothing but the registry went through the proxy, and nothing reached the real registry host.
			expect(proxy.refused.filter((line) => line.includes(REGISTRY_HOST))).toEqual([]);
			await n8n.stop();
		},
		300_000,
	);
});
