// A throwaway PostgreSQL (Debian's `postgresql` package) for queue mode as production runs it: one
// database that main, webhook processes and workers share. Loopback only, trust authentication, no
// fsync (nothing here must survive a crash). PostgreSQL refuses to run as root, so as root the server
// runs as Debian's `postgres` user, which then owns the data folder.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
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

export const NO_POSTGRES_REASON = 'no PostgreSQL server (apt-get install postgresql)';

/** `[command, args]` running `program` as the postgres user when we are root. */
function asServerUser(program, args) {
	const isRoot = process.getuid?.() === 0;
	return isRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
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
 * `{ port, env, logFile, stop }`; `env` holds n8n's DB_* settings for it.
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
	if (process.getuid?.() === 0) {
		const id = (flag) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
		chownSync(folder, id('-u'), id('-g'));
		chownSync(data, id('-u'), id('-g'));
	}
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
	const [command, args] = asServerUser(join(bin, 'postgres'), [
		'-D',
		data,
		'-p',
		String(port),
		'-h',
		'127.0.0.1',
		'-k',
		folder,
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
		'-c',
		'max_connections=200',
	]);
	const { exited, stop } = spawnSupervised(command, args, {
		env: process.env,
		cwd: folder,
		logFile,
		signal: 'SIGINT',
	});
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
	return { port, env, logFile, stop };
}
