import {
	NodeOperationError,
	type IExecuteFunctions,
	type INodeParameters,
	type IPollFunctions,
} from 'n8n-workflow';

import { fieldsOff, listed } from './sharedSettings';

/*
 * What a test run of the Catch-Up node ("Fetch Test Event") says when it has no trigger settings to
 * follow. Those settings reach this node only once the workflow is published (sharedSettings.ts),
 * so the reason alone ("no trigger is active") read wrong to a user who had just added and set up a
 * trigger: it told them to add one. Here the nodes as the editor holds them name the one step left:
 * add the trigger, turn on a named field in it, or publish.
 */

/** The Messaging Automation Triggers beside this node (sharing a next node), with their fields. */
function triggersBeside(context: IPollFunctions | IExecuteFunctions) {
	const name = context.getNode().name;
	return context
		.getChildNodes(name)
		.flatMap((next) => context.getParentNodes(next.name, { depth: 1, includeNodeParameters: true }))
		.filter((node) => node.type.split('.').pop() === 'messagingAutomationTrigger');
}

/** The node's parameters as fieldsOff reads them: n8n drops a hidden field's value. */
const onIn = (parameters: INodeParameters) => ({
	messages:
		!Array.isArray(parameters.events) ||
		parameters.events.some((event) => event === 'message.received'),
	grouping: parameters.groupQuickMessages === true,
	catchUp: parameters.catchUpMissed !== false,
});

const PUBLISH = 'then publish the workflow (on n8n 1.x: activate it)';

/** The test run's error, when the poll found no trigger settings to follow: the step the user has left. */
export function testRunError(context: IPollFunctions | IExecuteFunctions): NodeOperationError {
	const node = context.getNode();
	const beside = triggersBeside(context);
	const [trigger] = beside.filter((candidate) => !candidate.disabled);
	if (!trigger && beside.length > 0)
		return new NodeOperationError(
			node,
			`Activate the trigger "${beside[0].name}" (it is deactivated), ${PUBLISH}`,
			{
				description:
					"This node runs the messages the trigger missed, following the trigger's settings, and cannot read them from a deactivated trigger.",
			},
		);
	if (!trigger)
		return new NodeOperationError(
			node,
			'Connect this node and a Messaging Automation Trigger to the same next node',
			{
				description: `This node runs the messages the Messaging Automation Trigger missed, following its settings. Add the trigger first if this workflow has none; in it, turn on Group Quick Messages and Catch Up Missed Messages, ${PUBLISH}.`,
			},
		);
	const off = trigger.parameters ? fieldsOff(onIn(trigger.parameters)) : [];
	if (off.length > 0)
		return new NodeOperationError(
			node,
			`In the trigger "${trigger.name}", turn on ${listed(off)}, ${PUBLISH}`,
			{
				description:
					"This node runs the messages the trigger missed, following the trigger's settings, and only with Message Received, Group Quick Messages and Catch Up Missed Messages on.",
			},
		);
	return new NodeOperationError(node, 'Publish the workflow, then test this node again', {
		description:
			"This node reads the trigger's settings when the workflow is published (on n8n 1.x: activated), and a change to the trigger counts once the workflow is published again. A test then shows what the next poll would run.",
	});
}
