import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { catalogueFields } from '../../../nodes/MessagingAutomation/actions/toolGroups';
import { MessagingAutomation } from '../../../nodes/MessagingAutomation/MessagingAutomation.node';
import { catalogue } from '../../../nodes/shared/catalogue';

/* The node's description as the editor reads it: static operations, fields in a person's order. */

const { description } = new MessagingAutomation();
const node: INode = {
	id: 'n',
	name: 'Messaging',
	type: 'messagingAutomation',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** The parameters n8n keeps for a node with `parameters`, defaults filled in. */
function resolved(parameters: INodeParameters): INodeParameters {
	return (
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			node,
			description,
		) ?? {}
	);
}

function shown(parameters: INodeParameters): INodeProperties[] {
	const values = resolved(parameters);
	return description.properties.filter((property) =>
		NodeHelpers.displayParameter(values, property, node, description),
	);
}

function shownFor(tool: string, mode?: string, extra: INodeParameters = {}): INodeProperties[] {
	const definition = catalogue.find((entry) => entry.name === tool);
	return shown({
		resource: definition?.resource ?? '',
		operation: definition?.operation.value ?? '',
		...(mode ? { inputMode: mode } : {}),
		...extra,
	});
}

const operationProperties = description.properties.filter(
	(property) => property.name === 'operation',
);
const actions = operationProperties.flatMap(
	(property) => (property.options ?? []) as INodePropertyOptions[],
);

/** Every text of the description a person reads as words: names, options, actions, descriptions, hints. */
function texts(properties: readonly INodeProperties[]): string[] {
	return properties.flatMap((property) => [
		property.displayName,
		property.description ?? '',
		property.hint ?? '',
		...(property.options ?? []).flatMap((option) =>
			'displayName' in option
				? texts([option as INodeProperties])
				: 'values' in option
					? [
							String((option as { displayName?: string }).displayName),
							...texts(option.values as INodeProperties[]),
						]
					: [option.name, option.action ?? '', option.description ?? ''],
		),
	]);
}

describe('node description', () => {
	it('is an AI tool with the credential and a readable subtitle', () => {
		expect(description).toMatchObject({
			name: 'messagingAutomation',
			usableAsTool: true,
			credentials: [{ name: 'messagingAutomationApi', required: true }],
		});
		expect(description.subtitle).toContain('"message/send":"Send a message"');
		expect(description.subtitle).toContain('"webhook/list":"Get many webhook endpoints"');
	});

	it('lists every operation statically, each with an action and a one-line description', () => {
		expect(actions.length).toBeGreaterThanOrEqual(25);
		for (const tool of catalogue) {
			expect(
				actions.map((option) => option.action),
				tool.name,
			).toContain(tool.operation.action);
		}
		for (const option of actions) {
			expect(option.action, option.name).toMatch(/^[A-Z][a-z]/);
			expect(option.description?.length ?? 0, option.name).toBeGreaterThan(10);
			expect(option.description?.length ?? 99, option.name).toBeLessThan(80);
		}
		for (const property of operationProperties) {
			expect(property.typeOptions?.loadOptionsMethod).toBeUndefined();
			expect(
				(property.options ?? []).map((option) => (option as INodePropertyOptions).value),
				JSON.stringify(property.displayOptions),
			).toContain(property.default);
		}
	});

	it('has no snake_case API identifier in any name, option, action or description', () => {
		// Values a person types as they are (CSV column names) stand in <code>; expressions are code too.
		const words = (text: string) => text.replace(/<code>.*?<\/code>|\{\{[^}]*\}\}/g, '');
		const offenders = texts(description.properties).filter((text) =>
			/\b[a-z0-9]+_[a-z0-9_]+\b/.test(words(text)),
		);
		expect(offenders).toEqual([]);
	});

	it('starts Send with Channel, To and Text, nothing hidden under Additional Fields', () => {
		const send = shown({ resource: 'message', operation: 'send' });
		const names = send.map((property) => property.displayName);
		expect(names.slice(0, 6)).toEqual([
			'Resource',
			'Operation',
			'Input Mode',
			'Channel',
			'To',
			'Phone Number',
		]);
		expect(names).toEqual(expect.arrayContaining(['Message Type', 'Text']));
		expect(names.indexOf('Text')).toBeLessThan(names.indexOf('Additional Fields'));
		const template = shown({
			resource: 'message',
			operation: 'send',
			messageType: 'templateName',
			sendTo: 'conversationId',
		}).map((property) => property.displayName);
		expect(template).toEqual(
			expect.arrayContaining([
				'Conversation ID',
				'Template Name',
				'Template Language',
				'Recipient Opted In',
			]),
		);
		expect(template).not.toContain('Text');
		expect(template).not.toContain('Phone Number');
	});

	it('shows every catalogue field of every tool once: up front, or in Additional Fields', () => {
		for (const tool of catalogue) {
			const visible = new Set<string>();
			const choices = tool.layout?.choices ?? [];
			const selections =
				choices.length === 0
					? [{}]
					: choices.flatMap((choice) =>
							choice.options.map((option) => ({ [choice.parameter]: option.field })),
						);
			for (const selection of selections) {
				for (const property of shownFor(tool.name, 'fields', selection)) {
					if (property.name === 'additionalFields')
						for (const option of property.options ?? [])
							visible.add((option as INodeProperties).name);
					else visible.add(property.name);
				}
			}
			for (const field of catalogueFields(tool))
				expect(visible, `${tool.name}.${field.name}`).toContain(field.name);
		}
	});

	it('marks required fields required, and leaves no example data as a default', () => {
		for (const tool of catalogue) {
			const visible = shownFor(tool.name, 'fields');
			for (const field of catalogueFields(tool).filter((candidate) => candidate.required)) {
				expect(
					visible.find((property) => property.name === field.name)?.required,
					`${tool.name}.${field.name}`,
				).toBe(true);
			}
			for (const property of visible.filter((candidate) => candidate.type === 'json')) {
				expect(['[]', '{}'], `${tool.name}.${property.name}`).toContain(property.default);
			}
		}
	});

	it('derives types, option names and bounds from the schema', () => {
		const send = shownFor('send_message', 'fields');
		expect(send.find((option) => option.name === 'channel')).toMatchObject({
			type: 'options',
			options: [
				expect.objectContaining({ name: 'Business', value: 'business' }),
				expect.objectContaining({ name: 'QR (Personal Number)', value: 'qr' }),
			],
		});
		expect(send.find((option) => option.name === 'text')).toMatchObject({
			type: 'string',
			typeOptions: { rows: 4 },
		});
		const template = shownFor('send_message', 'fields', { messageType: 'templateName' });
		expect(template.find((option) => option.name === 'recipientOptInConfirmed')).toMatchObject({
			type: 'boolean',
			default: false,
			description: expect.stringMatching(/^Whether/),
		});
		const analytics = shownFor('get_business_messaging_analytics', 'fields').find(
			(property) => property.name === 'additionalFields',
		);
		expect((analytics?.options as INodeProperties[])[0]).toMatchObject({
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 90, numberPrecision: 0 },
		});
		const form = shownFor('create_messenger_form', 'fields');
		expect(form.find((property) => property.name === 'categories')).toMatchObject({
			type: 'multiOptions',
			required: true,
		});
		expect(
			(
				form.find((property) => property.name === 'categories')?.options as INodePropertyOptions[]
			).map((option) => option.name),
		).toContain('Sign Up');
		const recipients = shownFor('add_campaign_recipients', 'batch');
		expect(recipients.find((property) => property.name === 'batchConsentAt')).toMatchObject({
			type: 'dateTime',
			default: '={{ $json.consentAt }}',
		});
		expect(recipients.map((property) => property.name)).not.toContain('recipients');
	});

	it('describes every boolean with "Whether"', () => {
		const booleans = (properties: readonly INodeProperties[]): INodeProperties[] =>
			properties.flatMap((property) => [
				...(property.type === 'boolean' ? [property] : []),
				...booleans(
					(property.options ?? []).filter(
						(option): option is INodeProperties => 'displayName' in option && 'type' in option,
					),
				),
			]);
		for (const property of booleans(description.properties))
			expect(property.description, property.displayName).toMatch(/^Whether/);
	});

	it('offers batching where the list can be split, and the mapper and JSON for every tool', () => {
		const modes = (tool: string) => {
			const property = shownFor(tool).find((candidate) => candidate.name === 'inputMode');
			return (property?.options ?? []).map((option) => (option as { value: string }).value).sort();
		};
		expect(modes('add_campaign_recipients')).toEqual(['batch', 'fields', 'json', 'mapper']);
		expect(modes('create_group')).toEqual(['fields', 'json', 'mapper']);
		expect(modes('analyze_campaign_csv')).toEqual(['csvBinary', 'csvItems', 'fields', 'json']);
		expect(modes('search_messages')).toEqual(['fields', 'json', 'mapper']);
		expect(modes('get_business_health')).toEqual([]);
		const callTool = shown({ resource: 'other', operation: 'callTool' });
		expect(callTool.map((property) => property.displayName)).toEqual(
			expect.arrayContaining(['Tool Name or ID', 'Input Mode', 'Input']),
		);
	});
});
