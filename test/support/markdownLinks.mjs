// Checks the links of the README and docs/ as GitHub and npm resolve them: relative links and #anchors
// (GitHub's heading slugs), and absolute links into this repository, which must name files that exist.
// Plain ESM: check-package.mjs uses it on plain Node, the unit test (test/docs/links.test.ts) too.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** `https://github.com/<owner>/<name>` from package.json's repository URL. */
export function repositoryUrl(pkg) {
	const url = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository.url;
	return url.replace(/^git\+/, '').replace(/\.git$/, '');
}

/** Where a repository file is linked from outside it: the page (blob) and the raw file (images). */
export function repoFileUrls(repo) {
	const [, owner, name] = /github\.com\/([^/]+)\/([^/]+)$/.exec(repo);
	return {
		blob: `${repo}/blob/main/`,
		raw: `https://raw.githubusercontent.com/${owner}/${name}/main/`,
	};
}

/** Markdown without fenced code blocks and inline code spans, which hold no links. */
function withoutCode(markdown) {
	return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/**
 * GitHub's anchor for a heading: the text as rendered (code, emphasis and link syntax gone), lower
 * case, characters other than letters, digits, `-`, `_` and spaces dropped, spaces made hyphens.
 */
export function githubSlug(heading) {
	return heading
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.replace(/[`*]/g, '')
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
		.replace(/ /g, '-');
}

/** The anchors a file offers: its headings' slugs, a repeated one numbered (`-1`, `-2`) as GitHub does. */
export function anchorsOf(markdown) {
	const seen = new Map();
	const anchors = new Set();
	for (const [, text] of markdown
		.replace(/^```[\s\S]*?^```/gm, '')
		.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
		const slug = githubSlug(text);
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		anchors.add(count === 0 ? slug : `${slug}-${count}`);
	}
	return anchors;
}

/** Every link target: Markdown links and images, and HTML `href` and `src`. */
export function linksOf(markdown) {
	const text = withoutCode(markdown);
	return [
		...[...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
		...[...text.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((m) => m[1]),
	];
}

/**
 * What is wrong with the links of `files` (paths relative to `root`), as readable lines: a relative
 * link or an absolute link into `repo` to a file that does not exist, or to an anchor it lacks.
 */
export function linkProblems(root, files, repo) {
	const { blob, raw } = repoFileUrls(repo);
	const anchorCache = new Map();
	const anchors = (path) => {
		if (!anchorCache.has(path)) anchorCache.set(path, anchorsOf(readFileSync(path, 'utf8')));
		return anchorCache.get(path);
	};
	const problems = [];
	for (const file of files) {
		const from = join(root, file);
		for (const link of linksOf(readFileSync(from, 'utf8'))) {
			let target;
			if (link.startsWith(blob) || link.startsWith(`${repo}/tree/main/`))
				target = join(root, link.slice(link.indexOf('/main/') + '/main/'.length));
			else if (link.startsWith(raw)) target = join(root, link.slice(raw.length));
			else if (/^[a-z][a-z+.-]*:/i.test(link)) continue;
			else target = link.startsWith('#') ? from + link : join(dirname(from), link);
			const [path, anchor] = decodeURI(target.replace(/\?[^#]*/, '')).split('#');
			const shown = `${file}: ${link}`;
			if (!existsSync(path)) problems.push(`${shown} (no file ${relative(root, path)})`);
			else if (anchor && path.endsWith('.md') && !anchors(path).has(anchor))
				problems.push(`${shown} (no heading #${anchor} in ${relative(root, path)})`);
		}
	}
	return problems;
}

/** Links of the README that npm's page would break: relative ones to files the package does not hold. */
export function unpackagedReadmeLinks(readme, packagedFiles) {
	return linksOf(readme).filter(
		(link) =>
			!link.startsWith('#') &&
			!/^[a-z][a-z+.-]*:/i.test(link) &&
			!packagedFiles.includes(link.replace(/^\.\//, '').split('#')[0]),
	);
}
