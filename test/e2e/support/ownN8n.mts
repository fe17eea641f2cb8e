import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { startN8n } from '../../support/n8nProcess.mjs';
import { loginN8n, type N8nRestApi } from '../../support/n8nRestApi.mjs';
import { e2e } from './context.mjs';

type OwnN8nHandle = Awaited<ReturnType<typeof startN8n>>;

/**
 * An n8n of its own, on its own data, for tests that stop it: the suite's instance is never
 * stopped. `start` starts it, or starts it again on the same folder and port, and resolves to when
 * it is back; `n8n` and `api` are then the running one's. Its folder is beside the suite's, or in
 * `parent`: a folder outside the project, where the package resolves its modules from n8n alone
 * (inside it, Node finds the project's own node_modules first, walking up from the package).
 * `extraEnv`: more environment for each start.
 */
export function ownN8n(
	name: string,
	parent = join(e2e().userFolder, '..'),
	extraEnv: Record<string, string> = {},
) {
	const userFolder = join(parent, `${name}-${randomUUID().slice(0, 6)}`);
	let starts = 0;
	const own = {
		n8n: undefined as OwnN8nHandle | undefined,
		api: undefined as N8nRestApi | undefined,
		async start(): Promise<number> {
			starts++;
			own.n8n = await startN8n({
				userFolder,
				port: own.n8n?.port,
				fresh: starts === 1,
				installPackage: starts === 1,
				logName: `n8n-${name}-${starts}.log`,
				extraEnv,
			});
			own.api = await loginN8n(own.n8n.url, e2e().owner);
			return Date.now();
		},
	};
	return own;
}
