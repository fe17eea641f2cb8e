import type { z } from 'zod/v4';
import type { ToolDefinition } from './types';

export interface ValidationIssue {
	/** Field path such as `recipients[3].phoneNumber`; empty for the input as a whole. */
	path: string;
	/** The rule that failed, phrased to follow the path: "must be 1-4096 characters". */
	message: string;
}

export type ValidationResult<Output> =
	| { ok: true; data: Output }
	| { ok: false; issues: ValidationIssue[] };

type RawIssue = z.core.$ZodRawIssue;

const TYPE_NAMES: Record<string, string> = {
	string: 'a string',
	int: 'an integer',
	number: 'a number',
	boolean: 'true or false',
	array: 'a list',
	object: 'an object',
};

/*
 * Fallback wording for issues whose schema sets no message of its own. Bounds and formats carry
 * their own rule text (formats.ts); this covers missing fields, wrong types and enum values.
 */
function fallbackMessage(issue: RawIssue): string | undefined {
	// Optional fields accept undefined, so a check that sees it means a required field is missing.
	if (issue.input === undefined) return 'is required';
	switch (issue.code) {
		case 'invalid_type':
			return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
		case 'invalid_value':
			if (issue.values.length === 1) return `must be ${JSON.stringify(issue.values[0])}`;
			return `must be one of: ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
		default:
			return undefined;
	}
}

function formatPath(path: readonly PropertyKey[]): string {
	return path.reduce<string>((text, segment) => {
		if (typeof segment === 'number') return `${text}[${segment}]`;
		return text === '' ? String(segment) : `${text}.${String(segment)}`;
	}, '');
}

function toIssues(error: z.ZodError, allowed: readonly string[]): ValidationIssue[] {
	return error.issues.flatMap((issue) => {
		if (issue.code !== 'unrecognized_keys')
			return [{ path: formatPath(issue.path), message: issue.message }];
		// One issue per unknown property, named by its own path; at the top level the accepted names help most.
		const hint =
			issue.path.length === 0 && allowed.length > 0 ? `; accepted: ${allowed.join(', ')}` : '';
		return issue.keys.map((key) => ({
			path: formatPath([...issue.path, key]),
			message: `is not an accepted property${hint}`,
		}));
	});
}

/** Checks `input` against a tool's schema without sending anything. */
export function validateToolInput<Input extends z.ZodObject>(
	definition: Pick<ToolDefinition<Input>, 'input'>,
	input: unknown,
): ValidationResult<z.output<Input>> {
	// The error map only words failures, so a valid input is parsed without it: zod copies its
	// options with a spread on every parse, and with the map among them (Node 20) much of each
	// check's garbage was promoted to the old generation, 17 MB more peak memory for bench row 3.
	const valid = definition.input.safeParse(input);
	if (valid.success) return { ok: true, data: valid.data };
	const result = definition.input.safeParse(input, { error: fallbackMessage });
	if (result.success) return { ok: true, data: result.data };
	return { ok: false, issues: toIssues(result.error, Object.keys(definition.input.shape)) };
}

/** One line for error messages: "text must be 1-4096 characters; channel is required". */
export function formatIssues(issues: readonly ValidationIssue[]): string {
	return issues.map((issue) => `${issue.path || 'input'} ${issue.message}`).join('; ');
}
