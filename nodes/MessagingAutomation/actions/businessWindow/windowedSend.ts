import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { sendMessageTool } from '../../../shared/catalogue/tools/send_message';
import { MessagingApiError } from '../../../shared/client/errors';
import { coerceToSchema } from '../../helpers/coerce';
import type { RunContext } from '../runContext';
import { catalogueFields } from '../toolGroups';
import { TEMPLATE_VARIABLES } from './sendFields';
import { fallbackTemplate, outsideWindowChoice, windowClosedError } from './windowOption';
import { closedWhen, windowOutput, type WindowState } from './windowState';

/*
 * A free-text send on Business, decided by the window before anything is sent: inside it the
 * text goes as it is; outside it the node stops, sends the chosen template instead, or skips the
 * item, as If the 24-Hour Window Is Closed says. The idempotency key stays the item's, so a rerun
 * sends at most one of the two.
 */

/** The spec's bound of one template value (add_campaign_recipients' parameters). */
const MAX_TEMPLATE_VALUE = 1024;
const RECIPIENT_FIELDS = ['channel', 'phoneNumber', 'conversationId', 'replyToMessageId'];

export type WindowedSend =
	| { kind: 'text' | 'template'; input: Record<string, unknown>; window: WindowState }
	| { kind: 'skip'; window: Extract<WindowState, { open: false }>; reason: string };

interface Call {
	itemIndex: number;
	/** The model reads the errors: said in its terms. */
	agent: boolean;
}

/** Free text, not a template: what the window decides on Business. */
function isText(input: Record<string, unknown>): boolean {
	return typeof input.text === 'string' && !input.templateName;
}

function templateValues(context: IExecuteFunctions, itemIndex: number, text: string): unknown {
	if (context.getNodeParameter(TEMPLATE_VARIABLES, itemIndex, 'text') === 'text') {
		if (text.length > MAX_TEMPLATE_VALUE) {
			throw new NodeOperationError(
				context.getNode(),
				`Text must be at most ${MAX_TEMPLATE_VALUE} characters to fill a template variable`,
				{
					description:
						"The 24-hour window is closed, so the text would go as the template's {{1}}, which takes at most 1024 characters. Nothing was sent. Shorten the Text, or set Template Variables to Template Values.",
					itemIndex,
				},
			);
		}
		return [text];
	}
	const field = catalogueFields(sendMessageTool).find(
		(candidate) => candidate.name === 'templateParameters',
	);
	const raw = context.getNodeParameter('templateParameters', itemIndex, []);
	const coerced = field ? coerceToSchema(raw, field.schema) : { value: raw };
	return 'value' in coerced ? (coerced.value ?? []) : raw;
}

function templateInstead(
	context: IExecuteFunctions,
	itemIndex: number,
	input: Record<string, unknown>,
): Record<string, unknown> {
	const template: Record<string, unknown> = {};
	for (const name of RECIPIENT_FIELDS) if (input[name] !== undefined) template[name] = input[name];
	return {
		...template,
		...fallbackTemplate(context, itemIndex),
		templateParameters: templateValues(context, itemIndex, String(input.text)),
	};
}

/** Why nothing went, for the item of Skip and for the model. */
function notSentReason(window: Extract<WindowState, { open: false }>, agent: boolean): string {
	const why = `Not sent: this customer's 24-hour window ${closedWhen(window)}, and Business delivers free text only within 24 hours of the customer's last message.`;
	return agent
		? `${why} Do not send this text again: no free text reaches this customer until they write. Tell the user, or answer once the customer writes again.`
		: why;
}

/** How a free-text input goes out on Business; undefined when the window does not apply. */
export async function planWindowedSend(
	context: IExecuteFunctions,
	run: RunContext,
	input: Record<string, unknown>,
	{ itemIndex, agent }: Call,
): Promise<WindowedSend | undefined> {
	if (!isText(input) || (await run.window.channel(input)) !== 'business') return undefined;
	// An input without a channel may go on Business as the account's only channel: it is checked
	// as Business, and a template instead names Business (templates always do); the text itself
	// goes as it was given.
	const recipient = { ...input, channel: 'business' };
	const window = await run.window.state(recipient, context.getInputData()[itemIndex]?.json);
	if (window.open) return { kind: 'text', input, window };
	const choice = outsideWindowChoice(context, itemIndex);
	if (choice === 'template')
		return { kind: 'template', input: templateInstead(context, itemIndex, recipient), window };
	if (choice === 'skip') return { kind: 'skip', window, reason: notSentReason(window, agent) };
	if (agent)
		throw new NodeOperationError(context.getNode(), notSentReason(window, agent), { itemIndex });
	throw windowClosedError(context, window, {
		itemIndex,
		remedy:
			'Set If the 24-Hour Window Is Closed to Send a Template Instead (or Skip), send an approved template with Message Type: Template, or wait until the customer writes again.',
	});
}

/** What the output item adds: what was sent, the window's state, and for a model what it means. */
export function windowedSendOutput(plan: WindowedSend, agent: boolean): IDataObject {
	const window = windowOutput(plan.window);
	if (plan.kind === 'skip') return { sent: false, sent_as: null, reason: plan.reason, window };
	const output: IDataObject = { sent_as: plan.kind, window };
	if (plan.kind === 'template') {
		output.template = {
			name: plan.input.templateName as string,
			language: plan.input.templateLanguage as string,
		};
		if (agent && !plan.window.open)
			output.note = `This customer's 24-hour window ${closedWhen(plan.window)}, so your text was not sent as free text: the approved template ${String(plan.input.templateName)} was sent instead. Do not send it again; free text reaches this customer only after they write.`;
	}
	return output;
}

/**
 * A refusal of the item's key for other input: an earlier execution already sent this item, as
 * text or as the template, before the window changed. Said so; any other error is returned as is.
 */
export function alreadySent(
	context: IExecuteFunctions,
	error: unknown,
	{
		plan,
		itemIndex,
		idempotencyKey,
	}: { plan: WindowedSend; itemIndex: number; idempotencyKey?: string },
): unknown {
	const reused =
		error instanceof MessagingApiError &&
		error.code === 'invalid_input' &&
		error.field === 'idempotencyKey';
	if (!reused) return error;
	return new NodeOperationError(context.getNode(), 'An earlier execution already sent this item', {
		description: `The 24-hour window has changed since, so this run would have sent it as ${plan.kind === 'template' ? 'the template' : 'free text'}; the idempotency key ${String(idempotencyKey)} carried the first send, and nothing was sent again. Set Options › Idempotency Key to send anew.`,
		itemIndex,
	});
}
