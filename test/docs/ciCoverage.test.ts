import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * docs/development.md's table of what CI runs where against the suite itself: every end-to-end file
 * has its row, and a file runs on the other n8n lines (its last column) exactly when it has a case
 * tagged `every-line`, the per-line selection `.ci/run` runs there.
 */

const root = join(__dirname, '..', '..');
const e2eDir = join(root, 'test', 'e2e');
const read = (...path: string[]) => readFileSync(join(root, ...path), 'utf8');

function tableRows(): Map<string, string[]> {
	const section = read('docs', 'development.md').split('### What CI runs where')[1] ?? '';
	const rows = new Map<string, string[]>();
	for (const line of section.split('\n')) {
		const cells = /^\| `(\w+)` \|(.*)\|$/.exec(line);
		if (cells)
			rows.set(
				cells[1],
				cells[2].split('|').map((cell) => cell.trim()),
			);
	}
	return rows;
}

const suiteFiles = readdirSync(e2eDir)
	.filter((name) => name.endsWith('.test.mts'))
	.map((name) => name.replace('.test.mts', ''));

describe("docs/development.md's table of what CI runs where", () => {
	it('has one row per end-to-end suite file, and no other', () => {
		expect([...tableRows().keys()].sort()).toEqual([...suiteFiles].sort());
	});

	it.each(suiteFiles)(
		'%s: runs on 1.123.81 and 2.41.1 in the table exactly when it has a case tagged every-line',
		(file) => {
			const tagged = read('test', 'e2e', `${file}.test.mts`).includes("tags: ['every-line']");
			const otherLines = tableRows().get(file)?.[2] ?? '';
			expect(otherLines.startsWith('—'), `its cell: "${otherLines}"`).toBe(!tagged);
		},
	);

	it('names the lines and modes .ci/run runs: all of 2.40.7 in both modes, the selection on 1.123.81 and 2.41.1', () => {
		const ci = read('.ci', 'run');
		const suites = [...ci.matchAll(/^\s*e2e_suite \d (.+)$/gm)].map((match) => match[1]);
		expect(suites).toEqual([
			'env E2E_MODE=regular npm run test:e2e -- --n8n 2.40.7 &',
			'env E2E_MODE=queue npm run test:e2e -- --n8n 2.40.7',
			'env E2E_MODE=regular npm run test:e2e -- --n8n 1.123.x',
			'env E2E_MODE=regular npm run test:e2e -- --n8n 2.41.1',
		]);
		const header = read('docs', 'development.md')
			.split('### What CI runs where')[1]
			.split('\n')
			.find((line) => line.startsWith('| Suite'));
		expect(header).toBe(
			'| Suite (`test/e2e/`) | 2.40.7 regular | 2.40.7 queue | 1.123.81 and 2.41.1 regular (per-line selection) |',
		);
	});
});
