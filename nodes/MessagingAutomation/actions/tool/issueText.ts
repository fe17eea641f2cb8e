import type { ValidationIssue } from '../../../shared/catalogue/validate';
import { asSchema, unwrap, type JsonSchema } from '../../helpers/jsonSchema';
import { fieldLabel } from './fields/fieldProperty';

/*
 * Validation issues in the words of the editor: `recipients[3].phoneNumber must be …` reads
 * "Recipients[3] › Phone Number must be …", and field names inside a rule ("unless
 * conversationId is given") become labels too. The API names stay in the error's details.
 */

function labelPath(schema: JsonSchema | undefined, path: string): string {
	if (path === '') return 'The input';
	let current = schema;
	return path
		.split('.')
		.map((segment) => {
			const [, name = segment, indexes = ''] = /^([^[]*)((?:\[\d+\])*)$/.exec(segment) ?? [];
			const property = current ? unwrap(current).properties?.[name] : undefined;
			// A name the schema does not know is the caller's own: quoted as given, not renamed.
			const label = property || !current ? fieldLabel(name, property) : `"${name}"`;
			current = property;
			for (let depth = indexes.split('[').length - 1; depth > 0 && current; depth--) current = asSchema(unwrap(current).items);
			return `${label}${indexes}`;
		})
		.join(' › ');
}

/** Names that are plainly identifiers (camelCase or snake_case), so ordinary words stay as they are. */
const IDENTIFIER = /\b[a-z]+(?:[A-Z][a-z]*|_[a-z]+)+\b/g;

function labelWords(schema: JsonSchema | undefined, message: string): string {
	const properties = schema?.properties ?? {};
	return message.replace(IDENTIFIER, (word) => (word in properties ? fieldLabel(word, properties[word]) : word));
}

/** One sentence per issue, for people; `schema` is the tool's input schema. */
export function issueText(schema: JsonSchema | undefined, issues: readonly ValidationIssue[]): string {
	return issues.map((issue) => `${labelPath(schema, issue.path)} ${labelWords(schema, issue.message)}`).join('; ');
}
