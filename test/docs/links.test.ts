import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Plain ESM (check-package.mjs uses it too), so imported, not required.
const load = () => import('../support/markdownLinks.mjs');
let check: Awaited<ReturnType<typeof load>>;
beforeAll(async () => {
	check = await load();
});

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const repo = 'https://github.com/messaging-automation/n8n-nodes-messaging-automation';
const pages = [
	'README.md',
	'test/sandbox/README.md',
	...readdirSync(join(root, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
];

describe('links of the README and docs/', () => {
	it('resolve: relative links and #anchors, and absolute links into this repository', () => {
		expect(check.repositoryUrl(pkg)).toBe(repo);
		expect(check.linkProblems(root, pages, repo)).toEqual([]);
	});

	it('in the README work on npm too: no relative link to a file the package leaves out', () => {
		const readme = readFileSync(join(root, 'README.md'), 'utf8');
		expect(check.unpackagedReadmeLinks(readme, pkg.files)).toEqual([]);
	});
});

describe('the link check', () => {
	const scratch = mkdtempSync(join(tmpdir(), 'links-'));
	afterAll(() => rmSync(scratch, { recursive: true, force: true }));

	it("makes GitHub's heading anchors, numbering repeats", () => {
		expect(check.githubSlug('A quick, load-proof `npm test`')).toBe('a-quick-load-proof-npm-test');
		expect(check.githubSlug('Which n8n versions, and why not 2.41.3')).toBe(
			'which-n8n-versions-and-why-not-2413',
		);
		expect(check.githubSlug('Conversations: Group Quick Messages')).toBe(
			'conversations-group-quick-messages',
		);
		expect(check.githubSlug('Messaging Automation API (credential)')).toBe(
			'messaging-automation-api-credential',
		);
		expect([...check.anchorsOf('# Notes\n\n```\n# not a heading\n```\n## Notes\n')]).toEqual([
			'notes',
			'notes-1',
		]);
	});

	it('reports a missing file, a missing anchor and a repository URL to nothing', () => {
		mkdirSync(join(scratch, 'docs'), { recursive: true });
		writeFileSync(join(scratch, 'docs', 'a.md'), '# Alpha\n\nSee [b](b.md) and [top](#alpha).\n');
		writeFileSync(
			join(scratch, 'README.md'),
			[
				'[ok](docs/a.md#alpha) [gone](docs/b.md) [bad anchor](docs/a.md#beta) [here](#nowhere)',
				`[abs](${repo}/blob/main/docs/a.md) [abs gone](${repo}/blob/main/docs/c.md)`,
				'`[in code](docs/none.md)` [elsewhere](https://example.com/x.md)',
			].join('\n'),
		);
		expect(check.linkProblems(scratch, ['README.md', 'docs/a.md'], repo)).toEqual([
			'README.md: docs/b.md (no file docs/b.md)',
			'README.md: docs/a.md#beta (no heading #beta in docs/a.md)',
			'README.md: #nowhere (no heading #nowhere in README.md)',
			`README.md: ${repo}/blob/main/docs/c.md (no file docs/c.md)`,
			'docs/a.md: b.md (no file docs/b.md)',
		]);
	});

	it('tells which README links npm would break', () => {
		expect(
			check.unpackagedReadmeLinks('[a](docs/a.md) [b](#x) [c](LICENSE.md) <img src="x.png">', [
				'dist',
				'LICENSE.md',
			]),
		).toEqual(['docs/a.md', 'x.png']);
	});
});
