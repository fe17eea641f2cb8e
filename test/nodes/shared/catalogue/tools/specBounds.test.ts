import { describe, expect, it } from 'vitest';
import { findTool } from '../../../../../nodes/shared/catalogue';
import { validateToolInput } from '../../../../../nodes/shared/catalogue/validate';
import type { ToolDefinition } from '../../../../../nodes/shared/catalogue/types';
import { boundCases, withValue } from '../specCases';
import { SPEC_ROWS } from '../specTable';

/*
 * Every constrained field of every tool: a value at each limit passes, one beyond fails, and the
 * failure names the field path and states the rule.
 */

function tool(name: string): ToolDefinition {
	const definition = findTool(name);
	if (!definition) throw new Error(`${name} is missing from the catalogue`);
	return definition;
}

describe.each(
	SPEC_ROWS.map((row) => [`${row.tool}${row.variant ? ` (${row.variant})` : ''}`, row] as const),
)('%s', (_title, row) => {
	it('accepts the base input', () => {
		expect(validateToolInput(tool(row.tool), row.base)).toMatchObject({ ok: true });
	});

	it.each(
		boundCases(row).map((testCase) => [`${testCase.path}: ${testCase.title}`, testCase] as const),
	)('%s', (_name, testCase) => {
		const result = validateToolInput(
			tool(row.tool),
			withValue(row.base, testCase.path, testCase.value),
		);
		if (!testCase.rejectedWith) {
			expect(result).toMatchObject({ ok: true });
			return;
		}
		expect(result.ok).toBe(false);
		const issue = result.ok
			? undefined
			: result.issues.find((entry) => entry.path === testCase.path);
		expect(issue, `no issue at ${testCase.path}: ${JSON.stringify(result)}`).toBeDefined();
		expect(issue?.message).toMatch(/^must /);
		for (const fragment of testCase.rejectedWith) expect(issue?.message).toContain(fragment);
	});

	it.each(row.required.map((field) => [field]))('requires %s', (field) => {
		const result = validateToolInput(tool(row.tool), withValue(row.base, field, undefined));
		expect(result).toEqual({ ok: false, issues: [{ path: field, message: 'is required' }] });
	});

	it.each(
		Object.keys(row.base)
			.filter((field) => !row.required.includes(field) && !row.interdependent?.includes(field))
			.map((field) => [field]),
	)('treats %s as optional', (field) => {
		expect(validateToolInput(tool(row.tool), withValue(row.base, field, undefined))).toMatchObject({
			ok: true,
		});
	});

	it('rejects an unknown property by name', () => {
		const result = validateToolInput(tool(row.tool), { ...row.base, unexpectedField: 1 });
		expect(result.ok).toBe(false);
		expect(result.ok ? [] : result.issues).toEqual([
			expect.objectContaining({
				path: 'unexpectedField',
				message: expect.stringMatching(/^is not an accepted property/),
			}),
		]);
	});
});
