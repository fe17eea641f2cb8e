import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import type { N8nPollHost } from '../../../support/n8nPoll';
import { START_NODE_TYPE, type TestWorkflow } from '../../../support/n8nEngine';
import { useAnswerCatchUp } from './answerCatchUp';

/*
 * Review s11 (e413877..d28fc58), R4-4 as a user who upgrades: the Catch-Up node's second output,
 * Paused Chats, in a workflow made before it. An `it.fails` is a finding that fails on d28fc58.
 */

const { h, say, start, accountWrites, pollLater, toPeople } = useAnswerCatchUp();

/**
 * The Catch-Up node's workflow: its Bot output to Reply, as every workflow made before R4-4 has it
 * (the node had one output), and its Paused Chats output to People, or to nothing.
 */
function connected(pausedChatsTo: 'People' | undefined) {
	return (poll: N8nPollHost) => {
		const definition = (poll as unknown as { definition: TestWorkflow }).definition;
		const node = (name: string) => ({
			id: randomUUID(),
			name,
			type: START_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0] as [number, number],
			parameters: {},
		});
		definition.nodes.push(node('Reply'), node('People'));
		const to = (name: string) => [{ node: name, type: 'main' as const, index: 0 }];
		definition.connections['Catch-Up'] = {
			main: [to('Reply'), ...(pausedChatsTo ? [to(pausedChatsTo)] : [])],
		};
	};
}

/** A chat paused by the account's "/bot off", the person's message in it lost, two polls later. */
async function lostInPausedChat(pausedChatsTo: 'People' | undefined) {
	const { poll } = await start({ humanTakeover: true }, connected(pausedChatsTo));
	accountWrites('/bot off');
	h.sandbox.webhooks.faults.loseNext(1);
	const message = say('hello? is anyone there?');
	await pollLater(poll);
	await pollLater(poll);
	const told = [...poll.warnings, ...poll.failures.map((error) => error.message)].filter(
		(line) => line.includes('Paused Chats') && line.includes(message.id),
	);
	return { people: toPeople(poll), told };
}

/*
 * R11-4 (medium: a missed message silently marked as run, in every workflow made before R4-4 that
 * uses Human Takeover). Before R4-4 the node had one output; a paused chat's missed burst was left
 * and logged. Since, it goes to the node's new second output, Paused Chats, and is claimed there.
 * n8n adds the output to existing nodes unconnected (the node's typeVersion is still 1), so in a
 * workflow made before, the burst is claimed, reaches no node after the Catch-Up, and is never run
 * by anyone (the trigger, finding it claimed, passes nothing on); nothing in the log or the
 * executions says so (the execution shows the item in the Catch-Up node's output only, and
 * succeeds). The notice says to connect Paused Chats, but a published workflow's user does not
 * open the node again. Seen on d28fc58 (this test): the message went to Paused Chats, unconnected,
 * and nothing named it.
 * Smallest fix: n8n tells a node where its outputs go: the node's children's getConnections(child,
 * 'main') entries with `node` this node carry the output `index`. When Paused Chats (index 1) has
 * none and a burst goes there, the poll leaves that chat's bursts unclaimed (as before R4-4) and
 * logs, once per chat, `... Human Takeover paused the chat; connect this node's Paused Chats output
 * where the trigger's Paused Chats goes`, or throws that once an hour as noSettingsReport does. A
 * typeVersion 2 for the two outputs, version 1 keeping its one, is n8n's own way. Not tried.
 * Left, a decision (the lead): the package was never published, so no workflow predates Paused
 * Chats; and a Paused Chats output connected to nothing is the trigger's own behaviour too, a setup
 * where the person answers in the chat app and no node is told (docs/takeover.md says so for both).
 */
describe("review s11: a paused chat's missed burst in a workflow made before Paused Chats (R11-4)", () => {
	it('control: Paused Chats connected to People: the burst comes out there', async () => {
		const { people } = await lostInPausedChat('People');
		expect(people).toEqual(['hello? is anyone there?']);
	});

	it.fails(
		'R11-4: Paused Chats connected to nothing (the workflow made before it): the burst sent there is named in the log or an error',
		async () => {
			const { people, told } = await lostInPausedChat(undefined);
			expect(people).toEqual(['hello? is anyone there?']);
			expect(told.length).toBeGreaterThan(0);
		},
	);
});
