/**
 * What strict providers accept as a tool's parameters, as rules over a JSON Schema:
 * - OpenAI's strict function calling (Structured Outputs' supported subset): every object closed
 *   (`additionalProperties: false`) with every property required, only the listed keywords,
 *   plain types, at most 10 levels of nesting.
 * - Gemini's function declarations (an OpenAPI 3.0 subset), after what LangChain's Gemini adapters
 *   do to every schema: `additionalProperties` and `$schema` removed, and a root object without
 *   properties sent as no parameters at all.
 * Each check returns the problems found, as `path: problem`, so a failure says what to fix.
 */

type Schema = Record<string, unknown>;

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const OPENAI_KEYWORDS = new Set([
	'type',
	'description',
	'title',
	'properties',
	'required',
	'additionalProperties',
	'items',
	'enum',
	'const',
	'anyOf',
	'$ref',
	'$defs',
	'definitions',
	'pattern',
	'format',
	'minimum',
	'maximum',
	'exclusiveMinimum',
	'exclusiveMaximum',
	'multipleOf',
	'minItems',
	'maxItems',
]);
const OPENAI_FORMATS = new Set([
	'date-time',
	'time',
	'date',
	'duration',
	'email',
	'hostname',
	'ipv4',
	'ipv6',
	'uuid',
]);

const GEMINI_KEYWORDS = new Set([
	'type',
	'format',
	'title',
	'description',
	'nullable',
	'enum',
	'maxItems',
	'minItems',
	'properties',
	'required',
	'minProperties',
	'maxProperties',
	'minLength',
	'maxLength',
	'pattern',
	'example',
	'anyOf',
	'propertyOrdering',
	'default',
	'items',
	'minimum',
	'maximum',
]);
const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array']);

function isSchema(value: unknown): value is Schema {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every sub-schema with its path, the root first. */
function walk(
	schema: Schema,
	path = '$',
	depth = 0,
): Array<{ schema: Schema; path: string; depth: number }> {
	const found = [{ schema, path, depth }];
	const properties = isSchema(schema.properties) ? schema.properties : {};
	for (const [name, child] of Object.entries(properties))
		if (isSchema(child)) found.push(...walk(child, `${path}.${name}`, depth + 1));
	if (isSchema(schema.items)) found.push(...walk(schema.items, `${path}[]`, depth + 1));
	for (const [index, variant] of ((schema.anyOf as unknown[]) ?? []).entries()) {
		if (isSchema(variant)) found.push(...walk(variant, `${path}|${index}`, depth));
	}
	return found;
}

function typesOf(schema: Schema): unknown[] {
	return Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
}

export function openAiStrictIssues(parameters: Schema): string[] {
	const issues: string[] = [];
	if (parameters.type !== 'object') issues.push('$: the parameters must be an object schema');
	for (const { schema, path, depth } of walk(parameters)) {
		if (depth > 10) issues.push(`${path}: nested deeper than 10 levels`);
		for (const keyword of Object.keys(schema)) {
			if (!OPENAI_KEYWORDS.has(keyword) && !(path === '$' && keyword === '$schema'))
				issues.push(`${path}: "${keyword}" is not supported`);
		}
		const types = typesOf(schema);
		if (types.length === 0 && !schema.anyOf && !schema.$ref && !('const' in schema) && !schema.enum)
			issues.push(`${path}: no type`);
		for (const type of types)
			if (!TYPES.has(String(type))) issues.push(`${path}: type "${String(type)}" is not supported`);
		if (typeof schema.format === 'string' && !OPENAI_FORMATS.has(schema.format))
			issues.push(`${path}: format "${schema.format}" is not supported`);
		if (types.includes('object')) {
			if (schema.additionalProperties !== false)
				issues.push(`${path}: objects need additionalProperties: false`);
			const required = new Set((schema.required as string[] | undefined) ?? []);
			for (const name of Object.keys(isSchema(schema.properties) ? schema.properties : {})) {
				if (!required.has(name)) issues.push(`${path}.${name}: every property must be required`);
			}
		}
	}
	return issues;
}

export function geminiIssues(parameters: Schema): string[] {
	const sent = withoutAdapterKeywords(parameters);
	if (!isSchema(sent)) return [];
	const issues: string[] = [];
	for (const { schema, path } of walk(sent)) {
		for (const keyword of Object.keys(schema))
			if (!GEMINI_KEYWORDS.has(keyword)) issues.push(`${path}: "${keyword}" is not supported`);
		const types = typesOf(schema);
		if (Array.isArray(schema.type)) issues.push(`${path}: a list of types is not supported`);
		if (types.length === 0 && !schema.anyOf) issues.push(`${path}: no type`);
		for (const type of types)
			if (!GEMINI_TYPES.has(String(type)))
				issues.push(`${path}: type "${String(type)}" is not supported`);
		const isObject = types.includes('object');
		if (
			isObject &&
			path !== '$' &&
			Object.keys(isSchema(schema.properties) ? schema.properties : {}).length === 0
		) {
			issues.push(`${path}: an object needs at least one property`);
		}
		if (schema.enum && !types.includes('string')) issues.push(`${path}: enums must be strings`);
	}
	return issues;
}

/** What LangChain's Gemini adapters send: no additionalProperties or $schema, no empty root object. */
function withoutAdapterKeywords(schema: Schema): Schema | undefined {
	const strip = (value: unknown): unknown => {
		if (Array.isArray(value)) return value.map(strip);
		if (!isSchema(value)) return value;
		return Object.fromEntries(
			Object.entries(value)
				.filter(([key]) => key !== 'additionalProperties' && key !== '$schema')
				.map(([key, entry]) => [key, strip(entry)]),
		);
	};
	const stripped = strip(schema) as Schema;
	const empty = !isSchema(stripped.properties) || Object.keys(stripped.properties).length === 0;
	return stripped.type === 'object' && empty ? undefined : stripped;
}
