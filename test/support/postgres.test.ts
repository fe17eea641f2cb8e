import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const load = () => import('./postgres.mjs');

// Linux's limit for a Unix socket path (sun_path is 108 bytes with its closing NUL).
const LIMIT = 107;

/**
 * The folder the queue stack gives PostgreSQL (test/dev/stack.mjs: `${userFolder}-postgres`, the user
 * folder in the e2e run's folder) in a clone whose own path is `cloneLength` characters long.
 */
function queueStackFolder(parent: string, cloneLength: number): string {
	const clone = join(parent, 'c'.repeat(cloneLength - parent.length - 1));
	expect(clone).toHaveLength(cloneLength);
	return join(clone, '.cache', 'e2e', `run-${process.pid}-2.40.7-queue`, 'n8n-queue-postgres');
}

describe('PostgreSQL for queue mode, in a clone at a long path', () => {
	const parent = mkdtempSync('/tmp/clone-');
	// The server runs as the postgres user when we are root: it must reach the clone's folders.
	chmodSync(parent, 0o755);
	afterAll(() => rmSync(parent, { recursive: true, force: true }));

	it('puts the Unix socket in a short folder of its own, within the limit on any port', async () => {
		const { socketFolder, socketPath } = await load();
		const folder = socketFolder();
		try {
			expect(socketPath(folder, 65535).length).toBeLessThanOrEqual(LIMIT);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});

	// Where Debian's PostgreSQL is installed: in CI (.ci/run installs it before `npm test`) and wherever queue mode runs.
	it('starts the queue stack’s server from a clone at a 120-character path, its socket within 107 bytes, and removes the socket folder on stop', async (context) => {
		const { postgresBinDir, startPostgres } = await load();
		if (!postgresBinDir()) return context.skip('no PostgreSQL server (apt-get install postgresql)');
		const folder = queueStackFolder(parent, 120);
		mkdirSync(join(folder, '..'), { recursive: true });
		const server = await startPostgres({ folder, log: () => undefined });
		try {
			expect(lstatSync(server.socket).isSocket()).toBe(true);
			expect(server.socket.length).toBeLessThanOrEqual(LIMIT);
		} finally {
			await server.stop();
		}
		expect(() => lstatSync(join(server.socket, '..'))).toThrow(/ENOENT/);
	});
});
