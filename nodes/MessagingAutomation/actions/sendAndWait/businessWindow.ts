import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import {
	fallbackTemplate,
	OUTSIDE_WINDOW,
	outsideWindowChoice,
	outsideWindowProperty,
	STOP_CHOICE,
	templateFieldProperties,
	windowClosedError,
} from '../businessWindow/windowOption';
import { MessagingApiError } from '../../../shared/client/errors';
import type { RunContext } from '../runContext';
import { questionMessage, questionText, type AnswerLink } from './question';

/*
 * Send and Wait on Business follows the node's one window rule (../businessWindow). A template's
 * text is fixed at review, so the question and its links travel in the template's variables, in
 * an order the node states.
 */

/** The spec's bound of one template value (add_campaign_recipients' parameters). */
const MAX_TEMPLATE_VALUE = 1024;

type Show = Record<string, string[]>;

export function businessWindowProperties(show: Show): INodeProperties[] {
	const onBusiness = { ...show, channel: ['business'] };
	const withTemplate = { [OUTSIDE_WINDOW]: ['template'], ...onBusiness };
	return [
		outsideWindowProperty(
			[
				STOP_CHOICE,
				{
					name: 'Ask With a Template',
					value: 'template',
					description: 'Send an approved template whose variables carry the question and the links',
				},
			],
			{ show: onBusiness },
		),
		...templateFieldProperties({ show: withTemplate }),
		{
			displayName: 'Template Variables',
			name: 'templateVariables',
			type: 'options',
			default: 'messageAndLinks',
			description: 'What fills the variables of the template body, in order',
			options: [
				{
					name: 'Message, Then Links',
					value: 'messageAndLinks',
					description:
						'{{1}} is the Message, {{2}} onwards one link per button (Approve, then Decline)',
				},
				{
					name: 'Links Only',
					value: 'links',
					description: '{{1}} onwards one link per button; the template body holds the question',
				},
			],
			displayOptions: { show: withTemplate },
		},
	];
}

/** Whether the template's first variable holds the Message (Template Variables: Message, Then Links). */
function fillsMessage(context: IExecuteFunctions): boolean {
	return context.getNodeParameter('templateVariables', 0, 'messageAndLinks') === 'messageAndLinks';
}

function templateInput(
	context: IExecuteFunctions,
	recipient: IDataObject,
	message: string,
	links: readonly AnswerLink[],
): IDataObject {
	const withMessage = fillsMessage(context);
	if (withMessage && message.length > MAX_TEMPLATE_VALUE) {
		throw new NodeOperationError(
			context.getNode(),
			`Message must be at most ${MAX_TEMPLATE_VALUE} characters to fit a template variable`,
			{
				description:
					'Shorten the Message, or put the question in the template body and set Template Variables to Links Only. Nothing was sent.',
				itemIndex: 0,
			},
		);
	}
	return {
		...recipient,
		...fallbackTemplate(context, 0),
		templateParameters: [...(withMessage ? [message] : []), ...links.map((link) => link.url)],
	};
}

interface Question {
	recipient: IDataObject;
	links: readonly AnswerLink[];
	/** How to answer in words, with Answer in Chat. */
	instructions?: string;
	/** Validates a send_message input; throws naming the field. */
	check: (input: IDataObject) => void;
}

/**
 * The send_message input that asks the question: free text, or on Business with the window
 * closed, the template chosen for that case. Says so before sending when neither is possible;
 * the free-text input is checked before any request.
 */
export async function questionInput(
	context: IExecuteFunctions,
	run: RunContext,
	{ recipient, links, instructions, check }: Question,
): Promise<IDataObject> {
	const message = questionMessage(context);
	const text = { ...recipient, text: questionText(message, links, instructions) };
	check(text);
	if ((await run.window.channel(recipient)) !== 'business') return text;
	const onBusiness = { ...recipient, channel: 'business' };
	const window = await run.window.state(onBusiness, context.getInputData()[0]?.json);
	if (window.open) return text;
	if (outsideWindowChoice(context, 0) !== 'template') {
		throw windowClosedError(context, window, {
			itemIndex: 0,
			remedy:
				'Set If the 24-Hour Window Is Closed to Ask With a Template, or ask over the QR channel.',
		});
	}
	const template = templateInput(context, onBusiness, message, links);
	check(template);
	return template;
}

/**
 * The service's refusal of the template values, said in the node's terms: the person chose the
 * template, the node chose its values. Undefined for any other error.
 */
export function templateRefusal(
	context: IExecuteFunctions,
	error: unknown,
	input: IDataObject,
): NodeOperationError | undefined {
	const values = input.templateParameters;
	if (
		!(error instanceof MessagingApiError) ||
		error.field !== 'templateParameters' ||
		!Array.isArray(values)
	)
		return undefined;
	const filled = fillsMessage(context)
		? 'the Message, then one link per button'
		: 'one link per button';
	return new NodeOperationError(
		context.getNode(),
		`Template ${String(input.templateName)} does not take the ${values.length} values Send and Wait fills`,
		{
			description: `Send and Wait fills ${values.length} template variables: ${filled}. The service said "${error.serviceMessage ?? error.message}". Nothing was sent. Choose a template with ${values.length} variables, or change Template Variables.`,
			itemIndex: 0,
		},
	);
}
