#!/usr/bin/env node
// n8n's verification scanner (@n8n/scan-community-package) on this package, as n8n runs it before it
// lists a package as verified: its ESLint rules over the source (package.json, nodes/, credentials/)
// and over the tarball npm would publish (compiled .js and package.json). The scanner itself only
// scans packages published to npmjs.org with provenance; its own `analyzePackage` runs the same
// checks on a folder, so both legs run here before anything is published. Needs `npm run build`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cacheRoot, projectRoot } from './n8nInstall.mjs';

const SCANNER_VERSION = '0.32.0';
const scannerDir = join(cacheRoot, `scan-community-package-${SCANNER_VERSION}`);
const scannerModule = join(
	scannerDir,
	'node_modules/@n8n/scan-community-package/scanner/scanner.mjs',
);

if (!existsSync(scannerModule)) {
	mkdirSync(scannerDir, { recursive: true });
	console.log(
		`[scan] installing @n8n/scan-community-package@${SCANNER_VERSION} into ${scannerDir}`,
	);
	execFileSync(
		'npm',
		[
			'install',
			'--prefix',
			scannerDir,
			'--no-audit',
			'--no-fund',
			'--no-save',
			// eslint-plugin-n8n-nodes-base's install script insists on pnpm; nothing in it needs to run.
			'--ignore-scripts',
			`@n8n/scan-community-package@${SCANNER_VERSION}`,
		],
		{ stdio: 'inherit' },
	);
}
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(pathToFileURL(scannerModule).href);

const work = mkdtempSync(join(tmpdir(), 'scan-package-'));
let failed = false;
try {
	const [pack] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
			cwd: projectRoot,
			encoding: 'utf8',
		}),
	);
	const packageDir = join(work, 'package');
	mkdirSync(packageDir);
	execFileSync('tar', [
		'-xzf',
		join(work, pack.filename),
		'-C',
		packageDir,
		'--strip-components=1',
	]);

	for (const [leg, dir, patterns] of [
		['source', projectRoot, SOURCE_FILE_PATTERNS],
		[`tarball ${pack.filename}`, packageDir, ['**/*.js', 'package.json']],
	]) {
		const result = await analyzePackage(dir, patterns);
		console.log(`[scan] ${leg}: ${result.passed ? 'passed' : `FAILED (${result.message})`}`);
		if (!result.passed) {
			failed = true;
			if (result.details) console.log(result.details);
		}
	}
} finally {
	rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
