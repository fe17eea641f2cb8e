import type { IDataObject } from 'n8n-workflow';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { type SandboxHandle } from '../../../sandbox';
import { N8nPollHost } from '../../../support/n8nPoll';
import { overwriteClaimOf } from '../../../support/processedData';
import { messageDeliveries, waitFor } from '../fixtures';
import {
	catchUpTestRun,
	catchUpWorkflow,
	quickGrouping,
	useCatchUpBesideTrigger,
} from './catchUpFixtures';

/*
 * Messaging Automation Catch-Up (nodes/MessagingAutomationCatchUp): a poll beside the trigger, in
 * the same workflow, runs what the trigger never got: a chat whose only message's event was lost
 * (nothing follows it to show the gap), and what was written while the workflow was inactive. Both
 * nodes claim the same `message|<id>` keys in one record per workflow (runClaim.ts), so a message
 * runs once whichever node runs it. The sandbox clock stands still and is moved by hand; the
 * poll's clock is the service's (the answers' Date header).
 */

const MINUTE = 60_000;

const pair = useCatchUpBesideTrigger();
let sandbox: SandboxHandle;
beforeEach(() => void (sandbox = pair.sandbox()));
const { catchUp: catchUpHost, start } = pair;

function say(from: { phone: string; name: string }, text: string, afterMs = 0, fromMe = false) {
	sandbox.clock.advance(afterMs);
	const result = sandbox.inject.injectMessage({ from, text, fromMe });
	expect(result.saved).toBe(true);
	return result.message as unknown as IDataObject & { id: string };
}

/** A person whose chat with the account is new. */
const stranger = (n: number) => ({ phone: `49170000${String(1000 + n)}`, name: `New ${n}` });

const texts = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json.text);
const reasonOf = (item: { json: IDataObject }) => (item.json.caught_up as IDataObject).reason;
/** Every message text that ran, in either node's runs. */
const ran = (poll: N8nPollHost) => [
	...(pair.trigger()?.executions ?? []).flatMap((execution) => texts(execution.outputs.flat())),
	...poll.executions.flatMap(texts),
];

describe('Messaging Automation Catch-Up', () => {
	it("runs a new chat's first message whose event was lost, with nothing after it, once, marked caught up", async () => {
		const { trigger, poll } = await start();
		sandbox.webhooks.faults.loseNext(1);
		say(stranger(1), 'hi, is this the shop?', MINUTE);

		// Not yet: the burst closed less than 3 minutes ago on the service's clock.
		sandbox.clock.advance(MINUTE);
		expect(await poll.poll()).toBe(0);
		sandbox.clock.advance(3 * MINUTE);
		await poll.poll();
		await poll.poll();

		expect(poll.executions.map(texts)).toEqual([['hi, is this the shop?']]);
		const [item] = poll.executions[0];
		expect(item.json).toMatchObject({
			event_type: 'message.received',
			conversation_id: `${stranger(1).phone}@s.whatsapp.net`,
			caught_up: { reason: 'event never delivered' },
			burst: { message_count: 1, closed_by: 'quiet_window' },
		});
		// Four minutes on the service's clock, as its Date header says it (whole seconds).
		expect((item.json.caught_up as IDataObject).age_seconds).toBeOneOf([239, 240]);
		expect(trigger.executions).toHaveLength(0);
		expect(poll.warnings.filter((line) => line.includes('caught up 1 message'))).toHaveLength(1);
	});

	// Review s5, R5-4: a burst left unclaimed, then the person's next message a minute later, which
	// the trigger ran and the bot answered; nothing more. The chat's newest message is the account's.
	it('runs a missed burst once that the person followed within 3 minutes, after the bot answered the later message', async () => {
		const { trigger, poll } = await start();
		const person = stranger(10);
		sandbox.webhooks.faults.loseNext(1);
		say(person, 'my order never came', 70_000);
		say(person, 'hello??', MINUTE);
		await waitFor(() => messageDeliveries(sandbox, trigger).length >= 1, 20_000);
		await waitFor(() => trigger.executions.length >= 1, 20_000);
		await trigger.settled();
		say(person, 'hi! let me check', 10_000, true);
		sandbox.clock.advance(4 * MINUTE);
		await poll.poll();
		await poll.poll();

		expect(trigger.executions.map((execution) => texts(execution.outputs.flat()))).toEqual([
			['hello??'],
		]);
		expect(poll.executions.map(texts)).toEqual([['my order never came']]);
	});

	it('never catches up what was written before its first activation', async () => {
		sandbox.webhooks.faults.loseNext(1);
		say(stranger(2), 'written before the workflow existed');
		const poll = await catchUpHost();
		sandbox.clock.advance(4 * MINUTE);
		await poll.activate();
		sandbox.clock.advance(MINUTE);
		await poll.poll();

		expect(poll.executions).toEqual([]);
	});

	it('after 2 hours inactive runs each burst within the limit once, leaves the older ones and says how many', async () => {
		const poll = await catchUpHost({ catchUpHours: 1 });
		await poll.activate();
		poll.deactivate();
		// Written while the workflow was inactive (no trigger listening), over two hours.
		say(stranger(3), 'an hour and a half ago', 10 * MINUTE);
		say(stranger(4), 'also long ago', 5 * MINUTE);
		say(stranger(5), 'forty minutes ago', 65 * MINUTE);
		say(stranger(5), 'and more', 200);
		say(stranger(6), 'ten minutes ago', 30 * MINUTE);
		sandbox.clock.advance(10 * MINUTE);

		await poll.activate();
		sandbox.clock.advance(MINUTE);
		await poll.poll();

		expect(poll.executions.map(texts)).toEqual([
			['forty minutes ago\nand more', 'ten minutes ago'],
		]);
		expect(poll.executions[0].map(reasonOf)).toEqual([
			'written while the workflow was inactive',
			'written while the workflow was inactive',
		]);
		expect(poll.warnings.filter((line) => line.includes('left 2 '))).toHaveLength(1);
	});

	it('runs a burst once when the trigger and the poll take it at the same moment', async () => {
		const { trigger, poll } = await start();
		sandbox.webhooks.faults.loseNext(1);
		const person = stranger(9);
		// Past the trigger's activation slack (60 s), so its own catch-up may take it too.
		say(person, 'my order never came', 70_000);
		// 3.2 minutes later the person writes again: the trigger's run catches the lost message up
		// from its read while the poll reads the chat (deliveries stay within the signature's 5 min).
		sandbox.clock.advance(3.2 * MINUTE);
		const polled = poll.poll();
		say(person, 'hello??');
		await polled;
		await waitFor(() => messageDeliveries(sandbox, trigger).length >= 1, 20_000);
		await waitFor(() => trigger.executions.length >= 1, 20_000);
		await trigger.settled();
		sandbox.clock.advance(4 * MINUTE);
		await poll.poll();

		// Both offered it: the trigger's run as a caught-up item, the poll's first read too.
		expect(ran(poll).filter((text) => text === 'my order never came')).toHaveLength(1);
		expect(ran(poll)).toContain('hello??');
	});

	it('leaves a burst the trigger holds right now', async () => {
		const { trigger, poll } = await start({
			groupQuickMessages: true,
			quietWindowSeconds: 5,
			longestWaitSeconds: 30,
		});
		say(stranger(7), 'one', MINUTE);
		await waitFor(() => messageDeliveries(sandbox, trigger).length >= 1);
		// The trigger holds the delivery: the burst's quiet window has not passed (clock stopped).
		expect(await poll.poll()).toBe(0);
		sandbox.clock.advance(6_000);
		await waitFor(() => trigger.executions.length >= 1, 20_000);
		await trigger.settled();
		sandbox.clock.advance(4 * MINUTE);
		await poll.poll();

		expect(ran(poll).filter((text) => text === 'one')).toHaveLength(1);
		expect(trigger.executions.flatMap((execution) => texts(execution.outputs.flat()))).toEqual([
			'one',
		]);
	});

	it('runs nothing for a delivery that comes after the poll caught its message up', async () => {
		const { trigger, poll } = await start();
		sandbox.webhooks.faults.loseNext(1);
		const message = say(stranger(8), 'anyone?', 30_000);
		sandbox.clock.advance(4 * MINUTE);
		await poll.poll();
		expect(poll.executions.map(texts)).toEqual([['anyone?']]);

		// The service repairs the gap: the message's event comes late.
		sandbox.webhooks.emit('acc_demo', 'message.received', { message });
		await waitFor(() => messageDeliveries(sandbox, trigger).length >= 1, 20_000);
		await waitFor(() => trigger.executions.length >= 1, 20_000);
		await trigger.settled();

		expect(trigger.executions.map((execution) => texts(execution.outputs.flat()))).toEqual([[]]);
	});

	it('reads at most 50 chats a poll, the oldest first; the next poll reads the rest', async () => {
		const poll = await catchUpHost();
		await poll.activate();
		for (let n = 0; n < 52; n++) say(stranger(100 + n), `lone ${n}`, 1_000);
		// Ten minutes on: past what a poll looks back beyond the one before it (5 min).
		sandbox.clock.advance(10 * MINUTE);
		const before = sandbox.calls().length;
		await poll.poll();
		const reads = sandbox
			.calls()
			.slice(before)
			.filter((call) => call.tool === 'get_messages');
		sandbox.clock.advance(MINUTE);
		await poll.poll();

		expect(reads).toHaveLength(50);
		expect(poll.executions.map((items) => items.length)).toEqual([50, 2]);
		expect(poll.executions[1].map((item) => item.json.text)).toEqual(['lone 50', 'lone 51']);
	});

	it('reads nothing but the chat list when no chat changed (an idle account)', async () => {
		const poll = await catchUpHost();
		await poll.activate();
		const before = sandbox.calls().length;
		sandbox.clock.advance(MINUTE);
		await poll.poll();

		expect(
			sandbox
				.calls()
				.slice(before)
				.map((call) => call.tool),
		).toEqual(['list_conversations']);
	});
	it('catches up nothing beside a trigger without Group Quick Messages, says why once, and fails a poll once an hour naming the field', async () => {
		const poll = await catchUpHost({ groupQuickMessages: false });
		// The activation's first poll (n8n's test of it) never fails for this: a publication goes through.
		await poll.activate();
		say(stranger(20), 'nobody hears me', MINUTE);
		for (let n = 0; n < 3; n++) {
			sandbox.clock.advance(4 * MINUTE);
			await poll.poll();
		}

		expect(poll.executions).toEqual([]);
		expect(poll.warnings.filter((line) => line.includes('catches up nothing'))).toEqual([
			'Messaging Automation Catch-Up: catches up nothing: the Messaging Automation Trigger "Trigger" has Group Quick Messages off; this node needs Message Received, Group Quick Messages and Catch Up Missed Messages on',
		]);
		const step =
			'In the trigger "Trigger", turn on Group Quick Messages, then publish the workflow (on n8n 1.x: activate it)';
		expect(poll.failures.map((error) => error.message)).toEqual([step]);
		// An hour later on this process's clock, the error comes back.
		const now = performance.now();
		const clock = vi.spyOn(performance, 'now').mockImplementation(() => now + 61 * MINUTE);
		try {
			await poll.poll();
		} finally {
			clock.mockRestore();
		}
		expect(poll.failures.map((error) => error.message)).toEqual([step, step]);
	});

	it('published with no trigger, its activation goes through and a later poll fails once, saying to connect one', async () => {
		const { engine, definition } = catchUpWorkflow(sandbox);
		const poll = new N8nPollHost(engine, definition, 'Catch-Up');
		await poll.activate();
		for (let n = 0; n < 3; n++) {
			sandbox.clock.advance(MINUTE);
			await poll.poll();
		}

		expect(poll.failures.map((error) => error.message)).toEqual([
			'Connect this node and a Messaging Automation Trigger to the same next node',
		]);
		expect((poll.failures[0] as { description?: string }).description).toMatch(
			/runs nothing; this error comes back at most once an hour while it lasts\.$/,
		);
	});

	it('fails a test run in a workflow with no trigger, saying to connect one (and to add it first)', async () => {
		const { engine, definition } = catchUpWorkflow(sandbox);
		const run = await engine.run(definition, { node: 'Catch-Up', items: [{ json: {} }] }, 'manual');

		expect(run.nodeError('Catch-Up')?.message).toBe(
			'Connect this node and a Messaging Automation Trigger to the same next node',
		);
	});
	it("fails a test run on another credential than the trigger's, naming the node's Credential field", async () => {
		const { engine, definition } = await catchUpTestRun(
			sandbox,
			quickGrouping,
			sandbox.keys.member,
		);
		const run = await engine.run(definition, { node: 'Catch-Up', items: [{ json: {} }] }, 'manual');

		const error = run.nodeError('Catch-Up');
		expect(error?.message).toBe(
			'This node\'s credential, "Sandbox", is not the one the Messaging Automation Trigger "Trigger" uses: in this node\'s Credential to connect with, choose the trigger\'s credential, then publish the workflow again',
		);
		expect(error?.description).toContain('On n8n 1.x, activate the workflow again');
	});
	it('a test run shows nothing written before the first poll ever', async () => {
		say(stranger(21), 'before the workflow was ever active', MINUTE);
		const { engine, definition } = await catchUpTestRun(sandbox, quickGrouping);
		const poll = new N8nPollHost(engine, definition, 'Catch-Up');
		poll.savedStaticData = definition.staticData ?? {};
		sandbox.clock.advance(4 * MINUTE);
		await poll.activate();
		say(stranger(22), 'while active, lost', MINUTE);
		sandbox.clock.advance(4 * MINUTE);
		const run = await engine.run(
			{ ...definition, staticData: poll.savedStaticData },
			{ node: 'Catch-Up', items: [{ json: {} }] },
			'manual',
		);

		expect(texts(run.output('Catch-Up'))).toEqual(['while active, lost']);
	});
});

/*
 * Review s6, S6-1 by the poll (run/caughtUp.test.ts has it at the person's next message): since R5-4
 * the poll reads a chat the account wrote last and takes every burst the person followed before the
 * bot answered, for the whole Max Age; only the claim keeps one that ran from running again, and a
 * claim two processes' writes at the same moment dropped (docs/conversations.md) is gone.
 */
describe('review s6: the poll and a dropped claim', () => {
	it("S6-1 (poll): runs a message once that ran, when another process's claim at the same moment dropped its claim and the person wrote again before the bot answered", async () => {
		const { trigger, poll } = await start();
		const person = stranger(11);
		const first = say(person, 'first question', 70_000);
		const drop = overwriteClaimOf(`message|${first.id}`);
		await waitFor(() => trigger.executions.length >= 1, 20_000);
		await trigger.settled();
		// The person's next message comes 30 s on, long after the run's second write of its claim.
		await waitFor(() => drop.restored(), 20_000);
		say(person, 'second question', 30_000);
		await waitFor(() => trigger.executions.length >= 2, 20_000);
		await trigger.settled();
		say(person, 'here you go', 10_000, true);
		sandbox.clock.advance(4 * MINUTE);
		await poll.poll();
		await poll.poll();

		expect(ran(poll)).toEqual(['first question', 'second question']);
	});

	// S6-6 (another account read): n8n 2.40.7 publishes only the triggers whose name, type,
	// credentials or parameters changed (publication/trigger-diff.js, computeTriggerDiff); an
	// unchanged poll keeps its registration and the Workflow, static data included, of its own
	// activation (n8n-core active-workflow-triggers: isCurrent). The user moves the trigger to
	// another account's credential and publishes: the trigger alone is activated again (its endpoint
	// on the old account deleted) and shares its new credential into the database's static data;
	// the Catch-Up node is not activated again, so nothing fails publishing (docs: "with another,
	// publishing says Some triggers could not be activated"), and its polls go on reading the old
	// account by the trigger's old settings. Every message there is now one the trigger never
	// received: each ran, caught up, as the trigger's. The run a poll starts loads static data
	// afresh (MessagingAutomationCatchUp execute(): sharedCatchUpSettings), and now checks the
	// credential there too: it fails, naming what to do, an error execution per poll that finds
	// something, as with Catch Up Missed Messages turned off ("Caught up nothing").
	it("S6-6: after the trigger alone is published again on another account's credential, the Catch-Up node runs nothing of the old account", async () => {
		const { trigger, poll } = await start();
		const global = poll.savedStaticData.global as IDataObject;
		const shared = global.messagingAutomationCatchUp as Record<string, IDataObject>;
		for (const entry of Object.values(shared))
			Object.assign(entry, {
				credential: 'https://other.example|another-key',
				credentialId: 'cred-other',
			});
		// The old account's message: the trigger, on the other account now, never gets it.
		sandbox.webhooks.faults.loseNext(1);
		say(stranger(12), 'hi, is this the shop?', MINUTE);
		sandbox.clock.advance(4 * MINUTE);
		await poll.poll();
		await poll.poll();

		expect(trigger.executions).toHaveLength(0);
		expect(poll.executions.flat()).toEqual([]);
	});
});
