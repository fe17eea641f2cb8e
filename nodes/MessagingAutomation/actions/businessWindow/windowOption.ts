import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { sendMessageTool } from '../../../shared/catalogue/tools/send_message';
import { catalogueFields } from '../toolGroups';
import { fieldProperty } from '../tool/fields/fieldProperty';
import { closedWhen, type WindowState } from './windowState';

/*
 * What a Business send does when the 24-hour window is closed: the one option every sending
 * operation offers (If the 24-Hour Window Is Closed), the template it falls back to, and the
 * error that stops it.
 */

export const OUTSIDE_WINDOW = 'outsideWindow';
export type OutsideWindow = 'stop' | 'template' | 'skip';

export const STOP_CHOICE: INodePropertyOptions = {
	name: 'Stop With an Error',
	value: 'stop',
	description: 'Nothing is sent; the error says when the window closed',
};

type DisplayOptions = NonNullable<INodeProperties['displayOptions']>;

export function outsideWindowProperty(
	options: INodePropertyOptions[],
	displayOptions: DisplayOptions,
): INodeProperties {
	return {
		displayName: 'If the 24-Hour Window Is Closed',
		name: OUTSIDE_WINDOW,
		type: 'options',
		default: 'stop',
		description:
			"Business sends free text only within 24 hours of the customer's last message. What to do outside that window.",
		options,
		displayOptions,
	};
}

const TEMPLATE_FIELDS = ['templateName', 'templateLanguage', 'recipientOptInConfirmed'] as const;

/** The template to fall back to, asked for as Send asks for a template (send_message's fields). */
export function templateFieldProperties(displayOptions: DisplayOptions): INodeProperties[] {
	const fields = catalogueFields(sendMessageTool);
	return TEMPLATE_FIELDS.map((name) => {
		const field = fields.find((candidate) => candidate.name === name);
		if (!field) throw new Error(`send_message has no field ${name}`);
		return fieldProperty(name, field.schema, {
			required: name !== 'recipientOptInConfirmed',
			displayOptions,
		});
	});
}

export function outsideWindowChoice(context: IExecuteFunctions, itemIndex: number): OutsideWindow {
	return context.getNodeParameter(OUTSIDE_WINDOW, itemIndex, 'stop') as OutsideWindow;
}

/** The fallback template's part of a send_message input (its values are the caller's). */
export function fallbackTemplate(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const input: IDataObject = {
		templateName: String(context.getNodeParameter('templateName', itemIndex, '')).trim(),
		templateLanguage: String(context.getNodeParameter('templateLanguage', itemIndex, '')).trim(),
	};
	// Left out when off, so the check names the field instead of sending a refusal to the service.
	if (context.getNodeParameter('recipientOptInConfirmed', itemIndex, false) === true)
		input.recipientOptInConfirmed = true;
	return input;
}

/** Before anything is sent: the window is closed and the node was told to stop. */
export function windowClosedError(
	context: IExecuteFunctions,
	state: Extract<WindowState, { open: false }>,
	{ itemIndex, remedy }: { itemIndex: number; remedy: string },
): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`Business allows free text only within 24 hours of the customer's last message; this chat's window ${closedWhen(state)}`,
		{
			description: `The customer has not written within the last 24 hours, so nothing was sent. ${remedy}`,
			itemIndex,
		},
	);
}
