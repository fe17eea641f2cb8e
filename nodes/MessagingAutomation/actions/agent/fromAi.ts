import type { INodeParameters, NodeParameterValueType } from 'n8n-workflow';

/*
 * n8n's `$fromAI()` placeholders, the only way a node's parameters reach a model: n8n collects
 * every placeholder in the tool node's parameters, and each one's key, type and description
 * become one parameter of the tool's schema. The editor's "let the model define this" button
 * writes `$fromAI('<Display_Name>', '', '<type>')`, with an empty description, so the node's own
 * defaults (agent/modelFields.ts) carry the descriptions instead.
 */

/** The comment n8n's editor puts in front of placeholders it shows as "defined by the model". */
export const FROM_AI_MARKER = '/*n8n-auto-generated-fromAI-override*/';

/** What `$fromAI` offers; `json` is left out on purpose: its schema is untyped (see docs/ai-agent.md). */
export type FromAiType = 'string' | 'number' | 'boolean';

/** The key the editor derives from a field's label: "Phone Number" → `Phone_Number`. */
export function fromAiKey(displayName: string): string {
	return displayName.replace(/[^a-zA-Z0-9-]/g, '_').slice(0, 63);
}

/*
 * The description sits inside an n8n expression in a quoted argument: `{{` or `}}` would open or
 * end an expression (a space between the braces keeps JSON examples valid), a quote would end
 * the argument (it becomes a typographic one), and backslashes would be read as escapes.
 */
function expressionSafe(text: string): string {
	return text
		.replace(/\{(?=\{)/g, '{ ')
		.replace(/\}(?=\})/g, '} ')
		.replace(/'/g, '’')
		.replace(/\\/g, '/')
		.replace(/\s+/g, ' ')
		.trim();
}

/** A parameter value the model fills, shown in the editor as "defined automatically by the model". */
export function fromAiExpression(key: string, description: string, type: FromAiType): string {
	return `={{ ${FROM_AI_MARKER} $fromAI('${key}', '${expressionSafe(description)}', '${type}') }}`;
}

const PLACEHOLDER_KEY = /\$fromAI\s*\(\s*(['"`])([A-Za-z0-9_-]{1,64})\1/i;

/** The key of the first `$fromAI` placeholder in a raw parameter value, if any. */
export function placeholderKey(value: unknown): string | undefined {
	return typeof value === 'string' ? PLACEHOLDER_KEY.exec(value)?.[2] : undefined;
}

/**
 * Which model parameter fills which tool field, read from the node's raw parameters: the last
 * name on the path to a placeholder is the field (`phoneNumber`, `additionalFields.replyToMessageId`,
 * `toolInput.value.text`). Errors use these names, since they are the only ones the model knows.
 */
export function modelParameterNames(parameters: INodeParameters): Record<string, string> {
	const names: Record<string, string> = {};
	const visit = (value: NodeParameterValueType | undefined, field: string) => {
		const key = placeholderKey(value);
		if (key !== undefined) {
			names[field] ??= key;
			return;
		}
		if (Array.isArray(value))
			for (const entry of value) visit(entry as NodeParameterValueType, field);
		else if (typeof value === 'object' && value !== null) {
			for (const [name, entry] of Object.entries(value))
				visit(entry as NodeParameterValueType, name);
		}
	};
	for (const [name, value] of Object.entries(parameters)) visit(value, name);
	return names;
}
