import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { PauseState } from '../../shared/conversation/takeover';

/** What takeover found for a run: the conversation's pause state, or why it could not be read. */
export type TakeoverCheck = PauseState | { paused: null; error: string };

export const BOT_OUTPUT_NAME = 'Bot';
export const PEOPLE_OUTPUT_NAME = 'Paused Chats';

/**
 * Whether the trigger has the people's output: Human Takeover on for Message Received. The one
 * condition `readSettings` and the run claim apply, and TRIGGER_OUTPUTS spells for the editor.
 */
export const hasPeopleOutput = (humanTakeover: unknown, events: unknown): boolean =>
	humanTakeover === true && Array.isArray(events) && events.includes('message.received');

/**
 * The trigger's outputs as an expression over its parameters: one, as without takeover, or the
 * bot's and the people's (hasPeopleOutput), so the editor's outputs and the runs' always agree.
 */
export const TRIGGER_OUTPUTS: `={{${string}}}` = `={{ $parameter.humanTakeover === true && ($parameter.events || []).includes("message.received") ? ${JSON.stringify(
	[
		{ type: 'main', displayName: BOT_OUTPUT_NAME },
		{ type: 'main', displayName: PEOPLE_OUTPUT_NAME },
	],
)} : ["main"] }}`;

/**
 * How many outputs the trigger has in a run, from its parameters: n8n's getNodeOutputs() would
 * evaluate TRIGGER_OUTPUTS, on n8n 2.x in a fresh expression sandbox, milliseconds per run.
 */
export const triggerOutputCount = (context: IExecuteFunctions): number =>
	hasPeopleOutput(
		context.getNodeParameter('humanTakeover', 0, false),
		context.getNodeParameter('events', 0, []),
	)
		? 2
		: 1;

function takeoverJson(check: TakeoverCheck): IDataObject {
	if (check.paused === true) return { ...check };
	return {
		paused: check.paused,
		by: null,
		since: null,
		until: null,
		message_id: null,
		text: null,
		...(check.paused === null ? { error: check.error } : {}),
	};
}

/**
 * The run's `workflowData`. Takeover off: the one output, as ever. On: the bot's output, unless
 * the conversation is paused or its pause could not be checked; then the people's output, so a
 * person sees the message and the bot cannot talk over a takeover (see docs/takeover.md). The item says
 * what was found in `takeover`; events takeover does not judge (not a person's message) go to the
 * bot's output unchanged.
 */
export function takeoverWorkflowData(
	item: INodeExecutionData,
	enabled: boolean,
	check: TakeoverCheck | undefined,
): INodeExecutionData[][] {
	if (!enabled) return [[item]];
	if (!check) return [[item], []];
	item.json.takeover = takeoverJson(check);
	return check.paused === false ? [[item], []] : [[], [item]];
}
