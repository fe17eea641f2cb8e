import type { ValidationIssue } from '../../../shared/catalogue/validate';
import type { JsonSchema } from '../../helpers/jsonSchema';
import { issueText, type FieldNames } from '../tool/issueText';

/*
 * A model only sees an error's message (n8n's agent passes no description on), and only knows
 * the parameters it filled, so the message names those, says that nothing was sent, and says
 * whether a corrected call can succeed or the tool's own settings are at fault.
 */

function topField(issue: ValidationIssue): string {
	return issue.path.split(/[.[]/)[0];
}

/** The message of invalid input filled by a model; `names` maps fields to its parameter names. */
export function modelIssueMessage(
	schema: JsonSchema | undefined,
	issues: readonly ValidationIssue[],
	names: FieldNames,
): string {
	const text = `Invalid input: ${issueText(schema, issues, names)}. Nothing was sent.`;
	const filled = [
		...new Set(issues.map((issue) => names[topField(issue)]).filter((name) => name !== undefined)),
	];
	if (filled.length > 0)
		return `${text} Call this tool again with ${filled.join(' and ')} corrected.`;
	if (issues.every((issue) => issue.path === ''))
		return `${text} Call this tool again with the values corrected.`;
	return `${text} The field is set in the tool's configuration in n8n, so a new call with other values will not help; tell the user.`;
}
