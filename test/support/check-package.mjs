#!/usr/bin/env node
// Guards what npm would publish: only the build, the README, the licence and package.json, and no runtime
// dependencies. docs/ stays out of the package, so the README links to it (and to the screenshots) by
// absolute GitHub URLs: a relative link would break on npm's page.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { unpackagedReadmeLinks } from './markdownLinks.mjs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const problems = [];
if (pkg.dependencies && Object.keys(pkg.dependencies).length > 0) {
	problems.push(
		`runtime dependencies are not allowed: ${Object.keys(pkg.dependencies).join(', ')}`,
	);
}
const [pack] = JSON.parse(
	execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' }),
);
const allowed = (path) =>
	path.startsWith('dist/') || ['package.json', 'README.md', 'LICENSE.md'].includes(path);
for (const { path } of pack.files) {
	if (!allowed(path)) problems.push(`unexpected file in the package: ${path}`);
	if (path.startsWith('dist/test/')) problems.push(`test code in the package: ${path}`);
}
const packaged = pack.files.map((file) => file.path);
for (const link of unpackagedReadmeLinks(readFileSync('README.md', 'utf8'), packaged))
	problems.push(`README link to a file npm does not publish (use the GitHub URL): ${link}`);
for (const required of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
	if (!pack.files.some((file) => file.path === required))
		problems.push(`missing from the package: ${required}`);
}
if (problems.length) {
	for (const problem of problems) console.error(`- ${problem}`);
	process.exit(1);
}
console.log(
	`package ok: ${pack.files.length} files, ${pack.size} bytes packed, no runtime dependencies`,
);
