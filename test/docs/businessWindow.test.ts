import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/* docs/business-window.md states the window rule sentence by sentence; each is a test's name. */

const root = join(__dirname, '..', '..');
const doc = readFileSync(join(root, 'docs', 'business-window.md'), 'utf8');
const testDir = join(root, 'test', 'nodes', 'MessagingAutomation', 'actions', 'businessWindow');

/** The bold sentence that opens each entry of "The rule", without its closing full stop. */
function ruleSentences(): string[] {
	const section = doc.slice(doc.indexOf('## The rule'), doc.indexOf('## What each choice does'));
	return [...section.matchAll(/^- \*\*([\s\S]+?)\*\*/gm)].map((match) =>
		match[1].replace(/\s+/g, ' ').replace(/\.$/, ''),
	);
}

describe('the window rule in docs/business-window.md', () => {
	it('names a test after every sentence of the rule', () => {
		const tests = readdirSync(testDir)
			.filter((name) => name.endsWith('.test.ts'))
			.map((name) => readFileSync(join(testDir, name), 'utf8'))
			.join('\n');
		const sentences = ruleSentences();
		expect(sentences.length).toBeGreaterThanOrEqual(10);
		expect(
			sentences.filter(
				(sentence) =>
					!tests.includes(`it(${JSON.stringify(sentence)}`) && !tests.includes(`it('${sentence}'`),
			),
		).toEqual([]);
	});
});
