import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { MessagingAutomationCatchUp } from '../../../../nodes/MessagingAutomationCatchUp/MessagingAutomationCatchUp.node';
import { MessagingAutomationTrigger } from '../../../../nodes/MessagingAutomationTrigger/MessagingAutomationTrigger.node';
import type { SandboxHandle } from '../../../sandbox';
import { processedRecords } from '../../../support/processedData';
import { useStoppedClock } from '../fixtures';
import { besideWorkflow, quickGrouping, sandboxEngine } from './catchUpFixtures';

/*
 * The Catch-Up node's test run ("Fetch Test Event" in n8n's editor) in a workflow not ready for it,
 * as a user meets it (session s10b, seen in n8n 2.40.7): a trigger set up right but not yet published
 * got "no Messaging Automation Trigger in this workflow is active ... add one", and a trigger without
 * Group Quick Messages the same, naming no field. The error now names the one step left.
 */

let sandbox: SandboxHandle;
useStoppedClock(
	(started) => void (sandbox = started),
	() => undefined,
);

async function testRunError(trigger: INodeParameters, catchUpConnected = true) {
	const engine = sandboxEngine(sandbox, {
		messagingAutomationCatchUp: new MessagingAutomationCatchUp(),
		messagingAutomationTrigger: new MessagingAutomationTrigger(),
	});
	const run = await engine.run(
		besideWorkflow(trigger, { catchUpConnected }),
		{ node: 'Catch-Up', items: [{ json: {} }] },
		'manual',
	);
	return run.nodeError('Catch-Up');
}

describe("the Catch-Up node's test run in a workflow not ready for it", () => {
	it('a trigger without Group Quick Messages: names that field in the trigger', async () => {
		const error = await testRunError({ events: ['message.received'] });

		expect(error?.message).toBe(
			'In the trigger "On Messages", turn on Group Quick Messages, then publish the workflow (on n8n 1.x: activate it)',
		);
	});

	it('a trigger on other events: names Message Received, then Group Quick Messages, which shows with it', async () => {
		const error = await testRunError({ events: ['message.sent'] });

		expect(error?.message).toBe(
			'In the trigger "On Messages", turn on Message Received (in Events) and Group Quick Messages, then publish the workflow (on n8n 1.x: activate it)',
		);
	});

	it('a trigger with Catch Up Missed Messages off: names that field', async () => {
		const error = await testRunError({
			events: ['message.received'],
			...quickGrouping,
			catchUpMissed: false,
		});

		expect(error?.message).toBe(
			'In the trigger "On Messages", turn on Catch Up Missed Messages, then publish the workflow (on n8n 1.x: activate it)',
		);
	});

	it('a trigger set up right, the workflow not published: says to publish it', async () => {
		const error = await testRunError({ events: ['message.received'], ...quickGrouping });

		expect(error?.message).toBe('Publish the workflow, then test this node again');
		expect(error?.description).toContain(
			"reads the trigger's settings when the workflow is published",
		);
	});
});

/*
 * Review s10, R10-3: a Catch-Up node just added and not yet connected (the user tests it first) beside
 * a trigger set up right: the error says to add a trigger, which the workflow has. The poll follows
 * the workflow's trigger by name whether connected or not (sharedSettings.ts), so the steps left are
 * to connect this node and to publish. Smallest fix: testRunError.ts looks for the triggers of the
 * whole workflow when none shares a next node with this one (say "connect ..." then), and says "add"
 * only when the workflow has none. Fixed by one message for both: the node cannot list the
 * workflow's nodes, only those connected to it, so it says to connect this node and a trigger to the
 * same next node, and its description says to add the trigger first if there is none.
 */
describe("review s10: the Catch-Up node's test run before it is connected (R10-3)", () => {
	it('control: no trigger in the workflow at all: says to connect one, and to add it first if there is none', async () => {
		const engine = sandboxEngine(sandbox, {
			messagingAutomationCatchUp: new MessagingAutomationCatchUp(),
		});
		const alone = besideWorkflow({});
		const run = await engine.run(
			{ nodes: alone.nodes.filter((node) => node.name !== 'On Messages'), connections: {} },
			{ node: 'Catch-Up', items: [{ json: {} }] },
			'manual',
		);
		expect(run.nodeError('Catch-Up')?.message).toBe(
			'Connect this node and a Messaging Automation Trigger to the same next node',
		);
	});

	it('the Catch-Up node connected to Reply, no trigger there: says to connect one to "Reply" too', async () => {
		const engine = sandboxEngine(sandbox, {
			messagingAutomationCatchUp: new MessagingAutomationCatchUp(),
		});
		const run = await engine.run(
			besideWorkflow(undefined),
			{ node: 'Catch-Up', items: [{ json: {} }] },
			'manual',
		);
		expect(run.nodeError('Catch-Up')?.message).toBe(
			'Connect a Messaging Automation Trigger to "Reply" too',
		);
	});

	it('R10-3: a trigger set up right, the Catch-Up node not connected yet: the error says to connect it, not to add a trigger', async () => {
		const error = await testRunError({ events: ['message.received'], ...quickGrouping }, false);

		expect(error?.message).toBe(
			'Connect this node and a Messaging Automation Trigger to the same next node',
		);
	});
});

/*
 * A run a poll started, in a saved workflow with no trigger settings yet: n8n 2.40.7 ran the poll of
 * a publication before it saved what the trigger shares (seen in the e2e suite). The run fails,
 * claims nothing, and says that the next poll runs the messages, not that the workflow lacks a
 * trigger.
 */
describe('a run the poll started before n8n saved the trigger settings', () => {
	it('fails, claiming nothing, saying the next poll runs these messages', async () => {
		const engine = sandboxEngine(sandbox, {
			messagingAutomationCatchUp: new MessagingAutomationCatchUp(),
			messagingAutomationTrigger: new MessagingAutomationTrigger(),
		});
		const item = { json: { message_ids: ['m-1'], message_id: 'm-1', caught_up: {} } };
		const run = await engine.run(
			besideWorkflow({ events: ['message.received'], ...quickGrouping }),
			{ node: 'Catch-Up', items: [item] },
			'trigger',
		);

		expect(run.nodeError('Catch-Up')?.message).toBe(
			"Ran nothing yet: n8n had not yet saved the trigger's settings when this run started; the next poll runs these messages",
		);
		expect(processedRecords().size).toBe(0);
	});
});
