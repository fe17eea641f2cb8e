import { NodeHelpers, type IExecuteFunctions, type INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { MessagingAutomationTrigger } from '../../../../nodes/MessagingAutomationTrigger/MessagingAutomationTrigger.node';
import {
	takeoverWorkflowData,
	triggerOutputCount,
} from '../../../../nodes/MessagingAutomationTrigger/run/takeoverOutput';
import { N8nEngine } from '../../../support/n8nEngine';
import { TRIGGER, triggerWorkflow } from '../fixtures';

const nodeType = new MessagingAutomationTrigger();

function triggerNode(parameters: INodeParameters) {
	const engine = new N8nEngine({
		nodeTypes: { messagingAutomationTrigger: nodeType },
		credentialTypes: [],
	});
	const workflow = engine.workflow(triggerWorkflow(parameters));
	const node = workflow.getNode(TRIGGER);
	if (!node) throw new Error('no trigger');
	return { workflow, node };
}

/** The outputs n8n works out from the node's description for these parameters (as the editor does). */
function outputsFor(parameters: INodeParameters) {
	const { workflow, node } = triggerNode(parameters);
	return NodeHelpers.getNodeOutputs(workflow, node, nodeType.description);
}

/** What a run reads of the node's parameters: n8n's, defaults filled in. */
function runContext(parameters: INodeParameters): IExecuteFunctions {
	const { node } = triggerNode(parameters);
	return {
		getNodeParameter: (name: string, _item: number, fallback?: unknown) =>
			node.parameters[name] ?? fallback,
	} as unknown as IExecuteFunctions;
}

describe('the trigger outputs', () => {
	it('are one without takeover, as before', () => {
		expect(outputsFor({ events: ['message.received'] })).toEqual(['main']);
		// The takeover switch is shown for Message Received only; left on for other events it does nothing.
		expect(outputsFor({ events: ['message.sent'], humanTakeover: true })).toEqual(['main']);
	});

	it("are as many in a run as n8n's reading of the description gives, for every setting", () => {
		const settings = [undefined, false, true].flatMap((humanTakeover) =>
			[
				undefined,
				[],
				['message.sent'],
				['message.received'],
				['message.sent', 'message.received'],
			].map((events) => ({ humanTakeover, events }) as INodeParameters),
		);
		const counts = settings.map((parameters) => triggerOutputCount(runContext(parameters)));
		expect(counts).toEqual(settings.map((parameters) => outputsFor(parameters).length));
		// Both counts occur: the comparison covers the people's output too.
		expect(new Set(counts)).toEqual(new Set([1, 2]));
	});

	it('are the bot and the people, labelled, with takeover on', () => {
		expect(
			outputsFor({ events: ['message.received', 'message.sent'], humanTakeover: true }),
		).toEqual([
			{ type: 'main', displayName: 'Bot' },
			{ type: 'main', displayName: 'Paused Chats' },
		]);
	});
});

describe('takeoverWorkflowData', () => {
	const item = () => ({ json: { text: 'hi' } });

	it('gives one output when takeover is off and leaves the item alone', () => {
		const run = item();
		expect(takeoverWorkflowData(run, false, undefined)).toEqual([[{ json: { text: 'hi' } }]]);
	});

	it('sends what takeover did not judge (not a person message) to the bot unchanged', () => {
		expect(takeoverWorkflowData(item(), true, undefined)).toEqual([[{ json: { text: 'hi' } }], []]);
	});

	it('sends a paused message to the people, saying what paused it, since and until when', () => {
		const pause = {
			paused: true as const,
			by: 'handover' as const,
			since: '2026-11-25T12:00:00.000Z',
			until: null,
			message_id: 'm1',
			text: 'human',
		};
		const [bot, people] = takeoverWorkflowData(item(), true, pause);
		expect(bot).toEqual([]);
		expect(people).toEqual([{ json: { text: 'hi', takeover: pause } }]);
	});

	it('sends a message whose pause could not be checked to the people, saying so', () => {
		const [bot, people] = takeoverWorkflowData(item(), true, {
			paused: null,
			error: 'Pause not checked: down',
		});
		expect(bot).toEqual([]);
		expect(people[0].json.takeover).toEqual({
			paused: null,
			by: null,
			since: null,
			until: null,
			message_id: null,
			text: null,
			error: 'Pause not checked: down',
		});
	});
});
