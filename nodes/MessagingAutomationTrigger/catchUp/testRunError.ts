import {
	NodeOperationError,
	type IExecuteFunctions,
	type INodeParameters,
	type IPollFunctions,
} from 'n8n-workflow';

import { monotonicNow } from '../../shared/monotonic';
import { REPORT_EVERY_MS } from './endpointReport';
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

/** The names of the nodes this node's outputs connect to. */
function nextNodes(context: IPollFunctions | IExecuteFunctions): string[] {
	const name = context.getNode().name;
	return context
		.getChildNodes(name)
		.filter((child) =>
			context.getParentNodes(child.name, { depth: 1 }).some((parent) => parent.name === name),
		)
		.map((child) => child.name);
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

/** The error naming the fields this node needs that are off in the trigger `trigger`. */
function turnOnError(
	context: IPollFunctions | IExecuteFunctions,
	trigger: string,
	off: string[],
): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`In the trigger "${trigger}", turn on ${listed(off)}, ${PUBLISH}`,
		{
			description:
				"This node runs the messages the trigger missed, following the trigger's settings, and only with Message Received, Group Quick Messages and Catch Up Missed Messages on.",
		},
	);
}

/**
 * The test run's error, when the poll found no trigger settings to follow: the step the user has
 * left. `active`: an active workflow's poll, beside a trigger set up right that shared nothing: its
 * activation failed or is still running (R11-1).
 */
export function testRunError(
	context: IPollFunctions | IExecuteFunctions,
	active = false,
): NodeOperationError {
	const node = context.getNode();
	const beside = triggersBeside(context);
	const next = nextNodes(context);
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
			next.length === 1
				? `Connect a Messaging Automation Trigger to "${next[0]}" too`
				: 'Connect this node and a Messaging Automation Trigger to the same next node',
			{
				description: `This node runs the messages the Messaging Automation Trigger missed, following its settings. Add the trigger first if this workflow has none; in it, turn on Group Quick Messages and Catch Up Missed Messages, ${PUBLISH}.`,
			},
		);
	const off = trigger.parameters ? fieldsOff(onIn(trigger.parameters)) : [];
	if (off.length > 0) return turnOnError(context, trigger.name, off);
	if (active)
		return new NodeOperationError(
			node,
			`The trigger "${trigger.name}" has not shared its settings: its activation failed or is still running`,
			{
				description:
					"This node follows the trigger's settings, which the trigger shares once its activation went through: see the workflow's publication status (on n8n 1.x: its activation error).",
			},
		);
	return new NodeOperationError(node, 'Publish the workflow, then test this node again', {
		description:
			"This node reads the trigger's settings when the workflow is published (on n8n 1.x: activated), and a change to the trigger counts once the workflow is published again. A test then shows what the next poll would run.",
	});
}

/** The polls of an activation without settings; the first is n8n's test of the activation. */
const pollsWithout = new WeakMap<object, number>();
/** An activation's trigger gets this many poll times to share its settings before it is reported. */
const QUIET_POLLS = 3;
const reported = new Map<string, { step: string; at: number }>();

/** Settings found: a later loss of them is reported at once again. */
export const settingsFound = (key: string) => void reported.delete(key);

/**
 * An active workflow's poll that found no trigger settings to follow (no trigger beside it, the
 * trigger deactivated or a field of it off): the step left as an error execution, at most once an
 * hour on this process's clock while it lasts, as the endpoint report does (endpointReport.ts), so
 * a Catch-Up node that catches up nothing is seen, not only logged. Not before the activation's
 * fourth poll: a throw at its first would fail the publication, and a trigger's activation (beside
 * this node or not) may still be running (R11-1).
 */
export function noSettingsReport(
	context: IPollFunctions,
	key: string,
	lookup: { why: string; off?: { trigger: string; fields: string[] } },
): NodeOperationError | undefined {
	const polls = (pollsWithout.get(context) ?? 0) + 1;
	pollsWithout.set(context, polls);
	if (polls <= QUIET_POLLS) return undefined;
	// A trigger that shares its settings is followed wherever it is connected: its fields say it.
	const error = lookup.off
		? turnOnError(context, lookup.off.trigger, lookup.off.fields)
		: testRunError(context, true);
	const at = monotonicNow();
	const last = reported.get(key);
	if (last?.step === error.message && at - last.at < REPORT_EVERY_MS) return undefined;
	reported.set(key, { step: error.message, at });
	return new NodeOperationError(context.getNode(), error.message, {
		description:
			`${error.description ?? ''} Meanwhile this node runs nothing; this error comes back at most once an hour while it lasts.`.trim(),
	});
}
