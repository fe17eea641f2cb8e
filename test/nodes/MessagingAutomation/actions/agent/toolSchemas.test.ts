import type { INodeParameters, INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { geminiIssues, openAiStrictIssues } from '../../../../support/strictToolSchemas';
import { everyOperation, modelTool, shownProperties, toolNode } from '../../agentTool';

/*
 * Every tool schema the node can hand a model, checked offline against strict providers' rules:
 * for each operation, the tool as added (our defaults), and the tool with every field the
 * editor lets an author give to the model ("let the model define this") handed over, the way
 * the editor writes it: `$fromAI('<Display_Name>', '', '<type of the field>')`.
 */

/* The editor offers the override on any field except these types (n8n 2.40's editor). */
const NOT_OVERRIDABLE = new Set([
	'options',
	'credentialsSelect',
	'notice',
	'callout',
	'resourceMapper',
	'fixedCollection',
]);

function editorPlaceholder(property: INodeProperties): string {
	const type = ['boolean', 'number', 'json'].includes(property.type) ? property.type : 'string';
	return `={{ $fromAI('${property.displayName.replace(/[^a-zA-Z0-9-]/g, '_')}', '', '${type}') }}`;
}

/** Every overridable field of `parameters`' operation handed to the model, Additional Fields included. */
function everythingToTheModel(parameters: INodeParameters): INodeParameters {
	const node = toolNode(parameters);
	const handed: INodeParameters = { ...parameters };
	for (const property of shownProperties(node)) {
		if (property.noDataExpression || NOT_OVERRIDABLE.has(property.type)) continue;
		if (property.type === 'collection') {
			const options = (property.options ?? []) as INodeProperties[];
			handed[property.name] = Object.fromEntries(
				options
					.filter((option) => !NOT_OVERRIDABLE.has(option.type))
					.map((option) => [option.name, editorPlaceholder(option)]),
			);
		} else handed[property.name] = editorPlaceholder(property);
	}
	return handed;
}

const operations = everyOperation();

describe('tool schemas for models', () => {
	it('Message › Send reads well: a readable name and description, described parameters with their format rules', () => {
		const tool = modelTool(
			toolNode(
				{ resource: 'message', operation: 'send' },
				'Send a message in Messaging Automation',
			),
		);
		expect(tool.name).toBe('Send_a_message_in_Messaging_Automation');
		expect(tool.description).toMatch(
			/^Send a message: send a text or an approved template to a number or a chat\./,
		);
		const properties = tool.parameters.properties as Record<
			string,
			{ type: string; description: string }
		>;
		expect(Object.keys(properties)).toEqual(['Phone_Number', 'Text']);
		expect(properties.Phone_Number).toEqual({
			type: 'string',
			description: expect.stringContaining('digits only, international format, no +'),
		});
		expect(properties.Text.description).toMatch(/1-4096 characters/);
	});

	it('cover every operation of the node', () => {
		expect(operations.length).toBeGreaterThan(40);
		expect(operations).toContainEqual({ resource: 'message', operation: 'send' });
	});

	it.each(operations)(
		'$resource › $operation as added: accepted by OpenAI strict and Gemini',
		(selected) => {
			const tool = modelTool(toolNode(selected));
			expect(openAiStrictIssues(tool.parameters)).toEqual([]);
			expect(geminiIssues(tool.parameters)).toEqual([]);
			expect(tool.description.length).toBeGreaterThan(10);
		},
	);

	it.each(operations)(
		'$resource › $operation with every field given to the model: still accepted',
		(selected) => {
			const tool = modelTool(toolNode(everythingToTheModel(selected)));
			expect(openAiStrictIssues(tool.parameters)).toEqual([]);
			expect(geminiIssues(tool.parameters)).toEqual([]);
		},
	);

	it('offers no untyped JSON parameter and no JSON input mode to a model', () => {
		for (const selected of operations) {
			const shown = shownProperties(toolNode(selected));
			const untyped = shown
				.filter((property) => property.type === 'json')
				.map((property) => property.name);
			expect({ ...selected, untyped }).toEqual({ ...selected, untyped: [] });
			const modes = shown
				.find((property) => property.name === 'inputMode')
				?.options?.map((option) => ('value' in option ? option.value : ''));
			expect(modes ?? []).not.toContain('json');
		}
	});

	it('the checks catch what strict providers refuse', () => {
		const loose = {
			type: 'object',
			properties: {
				a: { type: 'string' },
				b: { anyOf: [{ type: 'object', additionalProperties: true }] },
			},
			required: ['a'],
		};
		expect(openAiStrictIssues(loose)).toEqual(
			expect.arrayContaining([
				'$: objects need additionalProperties: false',
				'$.b: every property must be required',
				'$.b|0: objects need additionalProperties: false',
			]),
		);
		expect(
			geminiIssues({
				type: 'object',
				properties: { a: { type: ['string', 'null'] }, b: { type: 'object', properties: {} } },
			}),
		).toEqual(
			expect.arrayContaining([
				'$.a: a list of types is not supported',
				'$.b: an object needs at least one property',
			]),
		);
	});
});
