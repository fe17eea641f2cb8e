// A throwaway PostgreSQL (Debian's `postgresql` package) for queue mode as production runs it: one
// database that main, webhook processes and workers share. Loopback only, trust authentication, no
// fsync (nothing here must survive a crash). PostgreSQL refuses to run as root, so as root the server
// runs as Debian's `postgres` user, which then owns the data folder.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, logTail, spawnSupervised } from './n8nProcess.mjs';

const USER = 'n8n';
const DATABASE = 'n8n';

/** The folder holding Debian's PostgreSQL programs (they are not on PATH), newest version first. */
export function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const versions = readdirSync(root)
		.filter((name) => existsSync(join(root, name, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length > 0 ? join(root, versions[0], 'bin') : undefined;
}

/** The longest Unix socket path Linux takes (sun_path is 108 bytes with its closing NUL). */
export const SOCKET_PATH_LIMIT = 107;

/**
 * A fresh folder of its own for the server's Unix socket, `.s.PGSQL.<port>`. PostgreSQL refuses to
 * start when that path passes SOCKET_PATH_LIMIT, which a folder inside a clone at a long path does, so
 * the socket never goes beside the data: it goes to a short folder under /tmp, wherever the clone lives
 * (n8n and the tools here connect over TCP; the socket is only where the server insists on one).
 */
export function socketFolder() {
	return mkdtempSync(join(existsSync('/tmp') ? '/tmp' : tmpdir(), 'pg-'));
}

/** The path of the server's Unix socket in `folder` for `port`. */
export function socketPath(folder, port) {
	return join(folder, `.s.PGSQL.${port}`);
}

export const NO_POSTGRES_REASON = 'no PostgreSQL server (apt-get install postgresql)';

/** `[command, args]` running `program` as the postgres user when we are root. */
function asServerUser(program, args) {
	const isRoot = process.getuid?.() === 0;
	return isRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
}

/** As root, hands `folders` to the postgres user the server runs as. */
function ownedByServer(...folders) {
	if (process.getuid?.() !== 0) return;
	const id = (flag) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
	for (const folder of folders) chownSync(folder, id('-u'), id('-g'));
}

function runQuietly(program, args) {
	const [command, commandArgs] = asServerUser(program, args);
	execFileSync(command, commandArgs, { stdio: 'pipe' });
}

async function waitForServer(bin, port, exited, logFile) {
	let exit;
	exited.then((result) => (exit = result));
	for (let attempt = 0; attempt < 120; attempt++) {
		if (exit) throw new Error(`postgres exited during start-up:\n${logTail(logFile)}`);
		const probe = spawnSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)], {
			stdio: 'ignore',
		});
		if (probe.status === 0) return;
		await new Promise((r) => setTimeout(r, 250));
	}
	throw new Error(`postgres did not accept connections:\n${logTail(logFile)}`);
}

/**
 * Creates a fresh cluster in `folder` and starts it on a free port. Resolves to
 * `{ port, env, logFile, socket, stop }`; `env` holds n8n's DB_* settings for it, `socket` the path of
 * its Unix socket (in a folder of its own, removed by `stop`).
 */
export async function startPostgres({
	folder,
	log = (line) => process.stderr.write(`[postgres] ${line}\n`),
}) {
	const bin = postgresBinDir();
	if (!bin) throw new Error(NO_POSTGRES_REASON);
	rmSync(folder, { recursive: true, force: true });
	const data = join(folder, 'data');
	mkdirSync(data, { recursive: true });
	ownedByServer(folder, data);
	runQuietly(join(bin, 'initdb'), [
		'-D',
		data,
		'-U',
		USER,
		'--auth=trust',
		'-E',
		'UTF8',
		'--no-instructions',
	]);
	const port = await freePort();
	const logFile = join(folder, 'postgres.log');
	const sockets = socketFolder();
	ownedByServer(sockets);
	const [command, args] = asServerUser(join(bin, 'postgres'), [
		'-D',
		data,
		'-p',
		String(port),
		'-h',
		'127.0.0.1',
		'-k',
		sockets,
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
		'-c',
		'max_connections=200',
	]);
	const server = spawnSupervised(command, args, {
		env: process.env,
		cwd: folder,
		logFile,
		signal: 'SIGINT',
	});
	const { exited } = server;
	const stop = async () => {
		await server.stop();
		rmSync(sockets, { recursive: true, force: true });
	};
	try {
		await waitForServer(bin, port, exited, logFile);
		runQuietly(join(bin, 'createdb'), [
			'-h',
			'127.0.0.1',
			'-p',
			String(port),
			'-U',
			USER,
			DATABASE,
		]);
	} catch (error) {
		await stop();
		throw error;
	}
	log(`postgres on 127.0.0.1:${port}`);
	const env = {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(port),
		DB_POSTGRESDB_DATABASE: DATABASE,
		DB_POSTGRESDB_USER: USER,
		DB_POSTGRESDB_PASSWORD: '',
	};
	return { port, env, logFile, socket: socketPath(sockets, port), stop };
}
