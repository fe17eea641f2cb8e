import { z } from 'zod/v4';

/*
 * Rules that tie fields together cannot be expressed per field, and JSON Schema consumers never
 * see refinements, so each tool's description repeats them in words.
 */

type Fields = Record<string, unknown>;
type Rule = (value: Fields, ctx: z.RefinementCtx) => void;

function given(value: Fields, field: string): boolean {
	return value[field] !== undefined;
}

/**
 * A check that applies `rules` once every field is valid on its own: a field that failed its own
 * rule is dropped from the parsed value, and would otherwise be misreported as missing.
 */
export function crossFieldRules(...rules: Rule[]) {
	return z.superRefine<Fields>((value, ctx) => {
		if (ctx.issues.length > 0) return;
		for (const rule of rules) rule(value, ctx);
	});
}

/**
 * At least one of `fields` must be given; with `exclusive`, exactly one. Issues are reported on
 * the field itself so the message names it.
 */
export function oneOf(fields: readonly string[], options: { exclusive: boolean }): Rule {
	return (value, ctx) => {
		const present = fields.filter((field) => given(value, field));
		if (present.length === 0) {
			const others = fields.slice(1).join(' or ');
			ctx.addIssue({
				code: 'custom',
				path: [fields[0]],
				message: `is required unless ${others} is given`,
			});
		} else if (options.exclusive && present.length > 1) {
			ctx.addIssue({
				code: 'custom',
				path: [present[1]],
				message: `must not be given together with ${present[0]}; give only one of ${fields.join(', ')}`,
			});
		}
	};
}

/** `field` may only be given when `companion` is given too. */
export function onlyWith(field: string, companion: string): Rule {
	return (value, ctx) => {
		if (given(value, field) && !given(value, companion)) {
			ctx.addIssue({
				code: 'custom',
				path: [field],
				message: `is only allowed together with ${companion}`,
			});
		}
	};
}

/** `field` is required whenever `trigger` is given; `rule` replaces the default wording. */
export function requiredWith(field: string, trigger: string, rule = 'is required'): Rule {
	return (value, ctx) => {
		if (given(value, trigger) && !given(value, field)) {
			ctx.addIssue({ code: 'custom', path: [field], message: `${rule} when ${trigger} is given` });
		}
	};
}

/** `field` must equal `expected` whenever `trigger` is given. */
export function equalsWhen(field: string, expected: string, trigger: string, reason: string): Rule {
	return (value, ctx) => {
		if (given(value, trigger) && value[field] !== expected) {
			ctx.addIssue({
				code: 'custom',
				path: [field],
				message: `must be '${expected}' when ${trigger} is given (${reason})`,
			});
		}
	};
}
