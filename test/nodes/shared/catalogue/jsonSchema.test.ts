import { describe, expect, it } from 'vitest';
import { catalogue, findTool } from '../../../../nodes/shared/catalogue';
import { toolJsonSchema } from '../../../../nodes/shared/catalogue/jsonSchema';
import type { ToolDefinition } from '../../../../nodes/shared/catalogue/types';
import { parsePath, specProperties } from './specCases';
import { type FieldRule, SPEC_ROWS } from './specTable';

interface Schema {
	type?: string;
	properties?: Record<string, Schema>;
	items?: Schema;
	required?: string[];
	additionalProperties?: unknown;
	description?: string;
	minLength?: number;
	maxLength?: number;
	minimum?: number;
	maximum?: number;
	minItems?: number;
	maxItems?: number;
	enum?: unknown[];
	const?: unknown;
	pattern?: string;
	anyOf?: Schema[];
}

function tool(name: string): ToolDefinition {
	const definition = findTool(name);
	if (!definition) throw new Error(`${name} is missing from the catalogue`);
	return definition;
}

function schemaOf(name: string): Schema {
	return toolJsonSchema(tool(name)) as Schema;
}

/** The sub-schema for a field path: names step into `properties`, indexes into `items`. */
function schemaAt(root: Schema, path: string): Schema {
	return parsePath(path).reduce<Schema>((schema, segment) => {
		const next = typeof segment === 'number' ? schema.items : schema.properties?.[segment];
		if (!next) throw new Error(`no schema at ${path}`);
		return next;
	}, root);
}

function expectRule(schema: Schema, rule: FieldRule): void {
	switch (rule.kind) {
		case 'string':
			expect(schema).toMatchObject({ type: 'string', minLength: rule.min, maxLength: rule.max });
			break;
		case 'integer':
			expect(schema).toMatchObject({ type: 'integer', minimum: rule.min, maximum: rule.max });
			break;
		case 'enum':
			expect(schema.enum).toEqual(rule.values);
			break;
		case 'list':
			expect(schema).toMatchObject({ type: 'array', maxItems: rule.max });
			expect(schema.minItems ?? 0).toBe(rule.min);
			break;
		case 'format': {
			expect(schema.type).toBe('string');
			// JSON Schema patterns are ECMAScript regexes: the derived pattern must state the same format.
			const pattern = new RegExp(schema.pattern ?? '');
			for (const value of rule.valid) expect(pattern.test(value), value).toBe(true);
			for (const value of rule.invalid) expect(pattern.test(value), value).toBe(false);
			break;
		}
		case 'boolean':
			expect(schema.type).toBe('boolean');
			break;
		case 'literalTrue':
			expect(schema.const).toBe(true);
			break;
		case 'opaque':
			break;
	}
}

describe('toolJsonSchema', () => {
	it.each(catalogue.map((definition) => [definition.name, definition] as const))(
		'%s derives a strict object schema whose fields all carry descriptions',
		(_name, definition) => {
			const schema = toolJsonSchema(definition) as Schema;
			expect(schema.type).toBe('object');
			expect(schema.additionalProperties).toBe(false);
			for (const [field, property] of Object.entries(schema.properties ?? {})) {
				expect(property.description, field).toMatch(/\w{3}/);
			}
		},
	);

	const tools = [...new Set(SPEC_ROWS.map((row) => row.tool))];

	it.each(tools)('%s lists exactly the spec fields, with the spec required list', (name) => {
		const schema = schemaOf(name);
		const row = SPEC_ROWS.find((candidate) => candidate.tool === name);
		expect(Object.keys(schema.properties ?? {}).sort()).toEqual(specProperties(SPEC_ROWS, name));
		expect([...(schema.required ?? [])].sort()).toEqual([...(row?.required ?? [])].sort());
	});

	it.each(
		SPEC_ROWS.flatMap((row) =>
			Object.entries(row.fields).map(
				([path, rule]) => [`${row.tool} ${path}`, row.tool, path, rule] as const,
			),
		),
	)('%s carries its bound', (_title, name, path, rule) => {
		expectRule(schemaAt(schemaOf(name), path), rule);
	});

	it('keeps nested objects strict (add_campaign_recipients recipients)', () => {
		const recipient = schemaAt(schemaOf('add_campaign_recipients'), 'recipients[0]');
		expect(recipient.additionalProperties).toBe(false);
		expect([...(recipient.required ?? [])].sort()).toEqual([
			'consentAt',
			'consentSource',
			'phoneNumber',
		]);
	});

	it('describes the form definition as an object or a JSON string of up to 1,000,000 characters', () => {
		const definition = schemaAt(schemaOf('create_messenger_form'), 'definition');
		expect(definition.anyOf).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ type: 'object' }),
				expect.objectContaining({ type: 'string', maxLength: 1_000_000 }),
			]),
		);
	});

	it('derives each schema once', () => {
		const definition = tool('send_message');
		expect(toolJsonSchema(definition)).toBe(toolJsonSchema(definition));
	});
});
