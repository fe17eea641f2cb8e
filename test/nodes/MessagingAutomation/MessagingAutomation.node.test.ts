import { NodeHelpers, type INode, type INodeParameters, type INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { catalogueFields } from '../../../nodes/MessagingAutomation/actions/toolGroups';
import { MessagingAutomation } from '../../../nodes/MessagingAutomation/MessagingAutomation.node';
import { catalogue } from '../../../nodes/shared/catalogue';

/* The node's description: fields generated from the catalogue, never written twice. */

const { description } = new MessagingAutomation();
const node: INode = { id: 'n', name: 'Messaging', type: 'messagingAutomation', typeVersion: 1, position: [0, 0], parameters: {} };

/** The parameters n8n keeps for a node with `parameters`, defaults filled in. */
function resolved(parameters: INodeParameters): INodeParameters {
	return NodeHelpers.getNodeParameters(description.properties, parameters, true, false, node, description) ?? {};
}

function shownFor(tool: string, mode: string): INodeProperties[] {
	const parameters = resolved({ resource: catalogue.find((entry) => entry.name === tool)?.resource ?? '', operation: tool, inputMode: mode });
	return description.properties.filter((property) => NodeHelpers.displayParameter(parameters, property, node, description));
}

describe('node description', () => {
	it('is an AI tool with the credential', () => {
		expect(description).toMatchObject({ name: 'messagingAutomation', usableAsTool: true, credentials: [{ name: 'messagingAutomationApi', required: true }] });
	});

	it('shows every catalogue field of every tool: required ones alone, optional ones in Additional Fields', () => {
		for (const tool of catalogue) {
			const fields = catalogueFields(tool);
			const shown = shownFor(tool.name, 'fields');
			const names = shown.map((property) => property.name);
			for (const field of fields.filter((candidate) => candidate.required)) {
				expect(names, `${tool.name}.${field.name}`).toContain(field.name);
				expect(shown.find((property) => property.name === field.name)?.required).toBe(true);
			}
			const optional = fields.filter((candidate) => !candidate.required).map((field) => field.name).sort();
			const collection = shown.find((property) => property.name === 'additionalFields');
			expect((collection?.options ?? []).map((option) => (option as INodeProperties).name).sort(), tool.name).toEqual(optional);
		}
	});

	it('derives types, options and bounds from the schema', () => {
		const send = shownFor('send_message', 'fields').find((property) => property.name === 'additionalFields');
		const options = (send?.options ?? []) as INodeProperties[];
		expect(options.find((option) => option.name === 'channel')).toMatchObject({ type: 'options', options: [{ name: 'QR', value: 'qr' }, { name: 'Business', value: 'business' }] });
		expect(options.find((option) => option.name === 'text')).toMatchObject({ type: 'string', typeOptions: { rows: 4 } });
		expect(options.find((option) => option.name === 'recipientOptInConfirmed')).toMatchObject({ type: 'boolean' });
		const analytics = shownFor('get_business_messaging_analytics', 'fields').find((property) => property.name === 'additionalFields');
		expect((analytics?.options as INodeProperties[])[0]).toMatchObject({ type: 'number', typeOptions: { minValue: 1, maxValue: 90, numberPrecision: 0 } });
		const form = shownFor('create_messenger_form', 'fields');
		expect(form.find((property) => property.name === 'categories')).toMatchObject({ type: 'multiOptions', required: true });
		expect(form.find((property) => property.name === 'definition')).toMatchObject({ type: 'json' });
		const recipients = shownFor('add_campaign_recipients', 'batch');
		expect(recipients.find((property) => property.name === 'batchConsentAt')).toMatchObject({ type: 'dateTime', default: '={{ $json.consentAt }}' });
		expect(recipients.map((property) => property.name)).not.toContain('recipients');
	});

	it('offers batching where the list can be split, and the mapper and JSON for every tool', () => {
		const modes = (tool: string) => {
			const property = shownFor(tool, '').find((candidate) => candidate.name === 'inputMode');
			return (property?.options ?? []).map((option) => (option as { value: string }).value).sort();
		};
		expect(modes('add_campaign_recipients')).toEqual(['batch', 'fields', 'json', 'mapper']);
		expect(modes('create_group')).toEqual(['fields', 'json', 'mapper']);
		expect(modes('analyze_campaign_csv')).toEqual(['csvBinary', 'csvItems', 'fields', 'json']);
		expect(modes('search_messages')).toEqual(['json', 'mapper']);
		expect(modes('get_business_health')).toEqual([]);
	});
});
