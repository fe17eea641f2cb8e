import type { INodeProperties } from 'n8n-workflow';

import { sendMessageTool } from '../../../shared/catalogue/tools/send_message';
import { catalogueFields, showForTool, toolsThat } from '../toolGroups';
import { fieldProperty } from '../tool/fields/fieldProperty';
import {
	OUTSIDE_WINDOW,
	outsideWindowProperty,
	STOP_CHOICE,
	templateFieldProperties,
} from './windowOption';

/*
 * The window's fields of a tool that sends free text (Send): in Fields mode once Business and Text
 * are chosen, in the modes that take the whole input (Map Each Field, JSON) always, since the
 * channel and the text then come with the input.
 */

export const TEMPLATE_VARIABLES = 'templateVariables';

const WHEN = [
	{ inputMode: ['fields'], channel: ['business'], messageType: ['text'] },
	{ inputMode: ['mapper', 'json'] },
];

function variablesProperty(show: Record<string, string[]>): INodeProperties {
	return {
		displayName: 'Template Variables',
		name: TEMPLATE_VARIABLES,
		type: 'options',
		default: 'text',
		description: "What fills the template's numbered variables, in order",
		options: [
			{
				name: 'The Text',
				value: 'text',
				description: '{{1}} is the message text (at most 1024 characters), so it still arrives',
			},
			{
				name: 'Template Values',
				value: 'values',
				description: 'Values you give or map below; none for a template without variables',
			},
		],
		displayOptions: { show },
	};
}

function valuesProperty(show: Record<string, string[]>): INodeProperties {
	const field = catalogueFields(sendMessageTool).find(
		(candidate) => candidate.name === 'templateParameters',
	);
	if (!field) throw new Error('send_message has no field templateParameters');
	return fieldProperty(field.name, field.schema, {
		displayOptions: { show: { [TEMPLATE_VARIABLES]: ['values'], ...show } },
	});
}

function windowFields(show: Record<string, string[]>): INodeProperties[] {
	// n8n shows a field whose condition meets an expression (a Channel of {{ $json.channel }}) without
	// weighing the conditions after it: the choice made here comes first.
	const withTemplate = { [OUTSIDE_WINDOW]: ['template'], ...show };
	return [
		outsideWindowProperty(
			[
				STOP_CHOICE,
				{
					name: 'Send a Template Instead',
					value: 'template',
					description: 'Send an approved template, which Business delivers at any time',
				},
				{
					name: 'Skip',
					value: 'skip',
					description: 'Send nothing; the item says why, so the workflow can branch on it',
				},
			],
			{ show },
		),
		...templateFieldProperties({ show: withTemplate }),
		variablesProperty(withTemplate),
		valuesProperty(withTemplate),
	];
}

export const windowFieldsDescription: INodeProperties[] = toolsThat(
	(tool) => tool.freeTextWindow === true,
).flatMap((tool) =>
	WHEN.flatMap((when) => windowFields(showForTool(tool, when).show as Record<string, string[]>)),
);
