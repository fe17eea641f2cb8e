import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

import { catalogue } from '../../nodes/shared/catalogue';
import { sourceFiles } from '../support/sourceFiles';

/*
 * What a tool does beyond one call (paging, Simplify, downloads, batches, CSV analysis, outcome
 * checks) is declared in its catalogue entry. This keeps the other way out: code that decides by a
 * tool's name, or lists of names. A tool is named only in its own catalogue file; code that calls a
 * particular tool imports its entry and uses `.name`.
 */

const NODES = join(__dirname, '..', '..', 'nodes');
const TOOL_FILES = join('shared', 'catalogue', 'tools');

/** Comments may name tools; only code is checked. A `//` right after a character (a URL) is kept. */
function withoutComments(source: string): string {
	return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
}

const literals = (code: string) => [...code.matchAll(/(['"`])((?:(?!\1)[^\\\n]|\\.)*)\1/g)].map((match) => match[2]);

/** Why `code` (from `file`, relative to nodes/) decides by tool names, if it does. */
function toolNameFindings(file: string, code: string, names: readonly string[]): string[] {
	const own = file.startsWith(TOOL_FILES) ? file.slice(TOOL_FILES.length + 1).replace(/\.ts$/, '') : undefined;
	const findings: string[] = [];
	for (const text of literals(withoutComments(code))) {
		if (names.includes(text) && text !== own) findings.push(`${file}: names the tool '${text}'`);
		if (/^[a-z]+_$/.test(text) && names.some((name) => name.startsWith(text))) findings.push(`${file}: matches tools by the prefix '${text}'`);
	}
	for (const match of withoutComments(code).matchAll(/\bconst\s+([A-Z_]*_TOOLS?)\s*=\s*[[('"`]/g)) {
		findings.push(`${file}: a list of tool names (${match[1]})`);
	}
	return findings;
}

describe('no decisions by tool name in nodes/', () => {
	const names = catalogue.map((tool) => tool.name);

	it('names each tool only in its own catalogue file', () => {
		const findings = sourceFiles(NODES).flatMap((path) => {
			const file = relative(NODES, path);
			return toolNameFindings(file, readFileSync(path, 'utf8'), names);
		});
		expect(findings, 'declare the behaviour in the catalogue entry (nodes/shared/catalogue/types.ts)').toEqual([]);
	});

	it('finds names compared, prefixes matched and name lists, but not names in comments', () => {
		const code = [
			"if (name === 'get_messages') return;",
			"const PAGED_TOOLS = ['list_conversations'];",
			"tool.name.startsWith('create_');",
			'// get_attachment_link answers with a link',
			"const url = 'https://example.com/send_message';",
		].join('\n');
		expect(toolNameFindings('MessagingAutomation/actions/x.ts', code, names)).toEqual([
			"MessagingAutomation/actions/x.ts: names the tool 'get_messages'",
			"MessagingAutomation/actions/x.ts: names the tool 'list_conversations'",
			"MessagingAutomation/actions/x.ts: matches tools by the prefix 'create_'",
			'MessagingAutomation/actions/x.ts: a list of tool names (PAGED_TOOLS)',
		]);
		expect(toolNameFindings(join(TOOL_FILES, 'get_messages.ts'), "name: 'get_messages',", names)).toEqual([]);
	});
});
