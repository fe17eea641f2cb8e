#!/usr/bin/env node
// `npm run check:n8n`: says whether n8n's latest release installs from the registry yet. Informational:
// it always exits 0 (CI runs it and goes on), whatever the registry answers. On 2026-11-26 the latest
// was 2.41.3, which needs @n8n/agents 0.26.2, absent from the registry; 2.41.1 installs and is tested.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { NEWEST_INSTALLABLE_2X } from './n8nInstall.mjs';

const run = promisify(execFile);

/** The release that does not install yet, and the one package version it waits for. */
export const BLOCKED = { n8n: '2.41.3', needs: '@n8n/agents', version: '0.26.2' };

/** `npm view <spec> <field>`: its answer, '' when the registry has no such version (npm's E404). */
async function npmView(spec, field) {
	try {
		const { stdout } = await run('npm', ['view', spec, field], { timeout: 60_000 });
		return stdout.trim();
	} catch (error) {
		if (/\bE404\b/.test(String(error.stderr))) return '';
		throw error;
	}
}

/** The line to print, from what the registry answered. */
export function verdict({ latest, blockerPublished }) {
	if (latest !== BLOCKED.n8n)
		return `n8n's latest is ${latest} (this check knows ${BLOCKED.n8n}): try \`npm run test:e2e -- --all --n8n ${latest}\` (every case); add it to test/support/n8nInstall.mjs when it passes.`;
	if (blockerPublished)
		return `n8n ${latest} can now be installed (${BLOCKED.needs} ${BLOCKED.version} is in the registry): run \`npm run test:e2e -- --all --n8n ${latest}\` (every case) and make it the newest 2.x in test/support/n8nInstall.mjs.`;
	return `n8n ${latest} (latest) does not install yet: it needs ${BLOCKED.needs} ${BLOCKED.version}, which the registry lacks; the newest installable and tested 2.x is ${NEWEST_INSTALLABLE_2X}.`;
}

async function main() {
	try {
		const latest = await npmView('n8n', 'dist-tags.latest');
		const blockerPublished =
			(await npmView(`${BLOCKED.needs}@${BLOCKED.version}`, 'version')) === BLOCKED.version;
		console.log(`[n8n release] ${verdict({ latest, blockerPublished })}`);
	} catch (error) {
		console.log(
			`[n8n release] not checked, the registry did not answer: ${String(error.message).split('\n')[0]}`,
		);
	}
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
