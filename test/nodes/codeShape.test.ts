import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

import { sourceFiles } from '../support/sourceFiles';

/*
 * The shape the house keeps (docs/development.md, "How the code is laid out"): small modules, short functions,
 * and dependencies that point one way. Checked over the shipped sources, nodes/ and credentials/.
 */

const ROOT = join(__dirname, '..', '..');
const FILES = [...sourceFiles(join(ROOT, 'nodes')), ...sourceFiles(join(ROOT, 'credentials'))];
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 60;

const name = (file: string) => relative(ROOT, file);
const text = (file: string) => readFileSync(file, 'utf8');

function longFunctions(file: string): string[] {
	const source = ts.createSourceFile(file, text(file), ts.ScriptTarget.ES2022, true);
	const found: string[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
			const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1;
			if (lines > MAX_FUNCTION_LINES) found.push(`${name(file)}:${first + 1} (${lines} lines)`);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/** Relative imports and re-exports of `file`, type-only ones included, as resolved file paths. */
function importsOf(file: string): string[] {
	const specifiers = [
		...text(file).matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']+)'/gms),
	].map((match) => match[1]);
	return specifiers.flatMap((specifier) => {
		const base = resolve(dirname(file), specifier).replace(/\.js$/, '');
		const target = [`${base}.ts`, join(base, 'index.ts')].find((candidate) =>
			statSync(candidate, { throwIfNoEntry: false })?.isFile(),
		);
		return target ? [target] : [];
	});
}

function importCycles(): string[] {
	const graph = new Map(FILES.map((file) => [file, importsOf(file)]));
	const state = new Map<string, 'open' | 'done'>();
	const path: string[] = [];
	const cycles: string[] = [];
	const visit = (file: string) => {
		state.set(file, 'open');
		path.push(file);
		for (const next of graph.get(file) ?? []) {
			if (state.get(next) === 'open')
				cycles.push([...path.slice(path.indexOf(next)), next].map(name).join(' → '));
			else if (!state.has(next)) visit(next);
		}
		path.pop();
		state.set(file, 'done');
	};
	for (const file of FILES) if (!state.has(file)) visit(file);
	return cycles;
}

/** The node folder (nodes/<Node>/) `file` belongs to; undefined for nodes/shared and credentials. */
function nodeFolderOf(file: string): string | undefined {
	const [top, folder] = relative(ROOT, file).split(/[\\/]/);
	return top === 'nodes' && folder !== 'shared' ? folder : undefined;
}

/**
 * A node that exists only beside another, as its companion in the same workflow, and whose code is
 * the other's: the Catch-Up poll runs the trigger's bursts with the trigger's claim and items, and
 * lives in the trigger's folder but for the node file n8n's lint wants in a folder of its name.
 */
const COMPANIONS: Record<string, string> = {
	MessagingAutomationCatchUp: 'MessagingAutomationTrigger',
};

/** Imports from one node's folder into another's: what two nodes share belongs in nodes/shared. */
function crossNodeImports(): string[] {
	return FILES.flatMap((file) =>
		importsOf(file)
			.filter((target) => {
				const from = nodeFolderOf(file);
				const to = nodeFolderOf(target);
				return from !== undefined && to !== undefined && from !== to && COMPANIONS[from] !== to;
			})
			.map((target) => `${name(file)} → ${name(target)}`),
	);
}

describe('the shape of the code', () => {
	it(`has no file over ${MAX_FILE_LINES} lines`, () => {
		expect(
			FILES.filter((file) => text(file).split('\n').length > MAX_FILE_LINES).map(name),
		).toEqual([]);
	});

	it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
		expect(FILES.flatMap(longFunctions)).toEqual([]);
	});

	it('has no import cycle, type-only imports included', () => {
		expect(importCycles()).toEqual([]);
	});

	it("has no node importing from another node's folder", () => {
		expect(crossNodeImports()).toEqual([]);
	});

	it('finds what it looks for (a control)', () => {
		expect(FILES.length).toBeGreaterThan(100);
		expect(
			importsOf(join(ROOT, 'nodes', 'MessagingAutomation', 'MessagingAutomation.node.ts')).map(
				name,
			),
		).toContain(join('nodes', 'MessagingAutomation', 'actions', 'router.ts'));
	});
});
