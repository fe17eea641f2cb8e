import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { RECIPIENT_CHOICE, sendMessageTool } from '../../../shared/catalogue/tools/send_message';
import type { ToolDefinition } from '../../../shared/catalogue/types';
import { catalogueFields } from '../toolGroups';
import { choiceProperty } from '../tool/fields/curatedFields';
import { fieldProperty } from '../tool/fields/fieldProperty';
import { planFields, type PlacedField, type UpFrontEntry } from '../tool/fields/layout';

/*
 * Send and Wait asks for its recipient exactly as Send does (Channel, To, Phone Number or
 * Conversation ID): the same entries of send_message's field plan, so both stay one definition.
 */

export const SEND_TOOL = sendMessageTool.name;

const sendTool = (): ToolDefinition => sendMessageTool;

/** The up-front entries of Send that name the recipient: the channel and the To choice. */
function recipientEntries(): UpFrontEntry[] {
	const tool = sendTool();
	const primary = tool.layout?.primary ?? [];
	return planFields(tool, catalogueFields(tool)).upFront.filter((entry) => {
		if (entry.kind === 'choice') return entry.choice.parameter === RECIPIENT_CHOICE;
		const { when, field } = entry.placed;
		return when ? when.parameter === RECIPIENT_CHOICE : primary.includes(field.name);
	});
}

export function recipientProperties(show: Record<string, string[]>): INodeProperties[] {
	return recipientEntries().map((entry) => {
		if (entry.kind === 'choice') return choiceProperty(entry.choice, { show });
		const { field, required, when } = entry.placed;
		const condition = when ? { [when.parameter]: [when.option] } : {};
		return fieldProperty(field.name, field.schema, {
			required,
			displayOptions: { show: { ...show, ...condition } },
		});
	});
}

/** The recipient part of a send_message input, read from the parameters as the editor shows them. */
export function readRecipient(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const input: IDataObject = {};
	const placed = recipientEntries().flatMap((entry): PlacedField[] =>
		entry.kind === 'field' ? [entry.placed] : [],
	);
	for (const { field, when } of placed) {
		if (when && context.getNodeParameter(when.parameter, itemIndex, '') !== when.option) continue;
		const value = context.getNodeParameter(field.name, itemIndex, '');
		if (typeof value === 'string' ? value.trim() !== '' : value !== undefined)
			input[field.name] = typeof value === 'string' ? value.trim() : value;
	}
	return input;
}
