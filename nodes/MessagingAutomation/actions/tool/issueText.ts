import type { ValidationIssue } from '../../../shared/catalogue/validate';
import { asSchema, unwrap, type JsonSchema } from '../../helpers/jsonSchema';
import { fieldLabel } from './fields/fieldProperty';

/*
 * Validation issues in the words of the editor: `recipients[3].phoneNumber must be …` reads
 * "Recipients[3] › Phone Number must be …", and field names inside a rule ("unless
 * conversationId is given") become labels too. The API names stay in the error's details.
 */

/** Names a caller knows top-level fields by, instead of their labels (a model's parameter names). */
export type FieldNames = Record<string, string>;

function labelPath(schema: JsonSchema | undefined, path: string, names: FieldNames): string {
	if (path === '') return 'The input';
	let current = schema;
	return path
		.split('.')
		.map((segment, depth) => {
			const [, name = segment, indexes = ''] = /^([^[]*)((?:\[\d+\])*)$/.exec(segment) ?? [];
			const properties = current ? unwrap(current).properties : undefined;
			// Own properties only: `__proto__` or `constructor` must not find Object.prototype's.
			const property = properties && Object.hasOwn(properties, name) ? properties[name] : undefined;
			// A name the schema does not know is the caller's own: quoted as given, not renamed.
			const label =
				depth === 0 && Object.hasOwn(names, name)
					? names[name]
					: property || !current
						? fieldLabel(name, property)
						: `"${name}"`;
			current = property;
			for (let depth = indexes.split('[').length - 1; depth > 0 && current; depth--)
				current = asSchema(unwrap(current).items);
			return `${label}${indexes}`;
		})
		.join(' › ');
}

/** Names that are plainly identifiers (camelCase or snake_case), so ordinary words stay as they are. */
const IDENTIFIER = /\b[a-z]+(?:[A-Z][a-z]*|_[a-z]+)+\b/g;

function labelWords(schema: JsonSchema | undefined, message: string, names: FieldNames): string {
	const properties = schema?.properties ?? {};
	return message.replace(IDENTIFIER, (word) =>
		Object.hasOwn(names, word)
			? names[word]
			: Object.hasOwn(properties, word)
				? fieldLabel(word, properties[word])
				: word,
	);
}

/** One sentence per issue; `schema` is the tool's input schema, `names` any names that replace labels. */
export function issueText(
	schema: JsonSchema | undefined,
	issues: readonly ValidationIssue[],
	names: FieldNames = {},
): string {
	return issues
		.map(
			(issue) =>
				`${labelPath(schema, issue.path, names)} ${labelWords(schema, issue.message, names)}`,
		)
		.join('; ');
}
