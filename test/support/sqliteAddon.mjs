// sqlite3 is the one native addon n8n needs (its default database), and its prebuilt download needs
// GitHub, which CI cannot reach: it is compiled here, which takes about two minutes on two cores. It is
// an N-API addon, so one build serves every Node version and every n8n that uses the same sqlite3: it
// is built once into .cache/sqlite3-<version>-napi/, while npm is still downloading n8n (compiling
// needs the CPU, downloading waits on the network), and copied into each n8n install.
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

/** The sqlite3 that n8n 1.123.x and 2.40.x both depend on. */
export const SQLITE3_VERSION = '5.1.7';

const ADDON = join('build', 'Release', 'node_sqlite3.node');

/**
 * The cached addon, built first if missing. `npm(args, cwd, label, phase)` runs npm with the pinned
 * Node's headers (see n8nInstall.mjs).
 */
export async function ensureSqliteAddon(cacheRoot, npm) {
	const dir = join(cacheRoot, `sqlite3-${SQLITE3_VERSION}-napi`);
	const addon = join(dir, 'node_sqlite3.node');
	if (existsSync(addon)) return addon;
	// Built in a folder of its own and moved into place whole: two installs may race here.
	const work = join(dir, `build-${process.pid}`);
	rmSync(work, { recursive: true, force: true });
	mkdirSync(work, { recursive: true });
	writeFileSync(
		join(work, 'package.json'),
		JSON.stringify({
			name: 'cache-sqlite3',
			private: true,
			dependencies: { sqlite3: SQLITE3_VERSION },
		}),
	);
	await npm(['install', '--ignore-scripts', '--no-package-lock'], work, 'sqlite3 download');
	await npm(
		['rebuild', 'sqlite3'],
		work,
		'sqlite3 native build (once for all n8n versions)',
		'build',
	);
	renameSync(join(work, 'node_modules', 'sqlite3', ADDON), addon);
	rmSync(work, { recursive: true, force: true });
	return addon;
}

/** Copies the cached addon into an n8n install whose sqlite3 is that version; false when it is not. */
export function placeSqliteAddon(n8nDir, addon) {
	const packageDir = join(n8nDir, 'node_modules', 'sqlite3');
	let version;
	try {
		version = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
	} catch {
		return false;
	}
	if (version !== SQLITE3_VERSION) return false;
	mkdirSync(join(packageDir, 'build', 'Release'), { recursive: true });
	copyFileSync(addon, join(packageDir, ADDON));
	return true;
}
