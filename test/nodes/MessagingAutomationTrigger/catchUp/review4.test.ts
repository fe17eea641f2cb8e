import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { SandboxHandle } from '../../../sandbox';
import type { N8nPollHost } from '../../../support/n8nPoll';
import { useStoppedClock } from '../fixtures';
import { catchUpBeside } from './catchUpFixtures';

/*
 * Review 4 (branch review-4): the Catch-Up node follows the settings its trigger shares in static
 * data (catchUp/sharedSettings.ts). Findings as `it.fails`, each beside a control that holds.
 */

const MINUTE = 60_000;
const grouping: INodeParameters = {
	groupQuickMessages: true,
	quietWindowSeconds: 0.4,
	longestWaitSeconds: 10,
};

let sandbox: SandboxHandle;
useStoppedClock(
	(started) => void (sandbox = started),
	() => undefined,
);

/** The poll of an active Catch-Up node beside a trigger with `parameters` (its credential `apiKey`'s). */
async function activePoll(parameters: INodeParameters, apiKey?: string): Promise<N8nPollHost> {
	const poll = await catchUpBeside(sandbox, { ...grouping, ...parameters }, apiKey);
	await poll.activate();
	sandbox.clock.advance(MINUTE);
	return poll;
}

/** A new person's message, whose event the service lost (the poll's read alone finds it). */
function lostMessage(n: number, text: string, extra: { accountId?: string } = {}) {
	sandbox.inject.injectMessage({ ...extra, from: { phone: `49170000900${n}`, name: 'P' }, text });
}

/** Polls once the chat has been quiet four minutes; every text the poll's runs passed on. */
async function pollLater(poll: N8nPollHost): Promise<unknown[]> {
	sandbox.clock.advance(4 * MINUTE);
	await poll.poll();
	return poll.executions.flat().map((item) => item.json.text);
}

describe('review 4: the Catch-Up node and the trigger it follows', () => {
	it('control: beside a trigger of the same account, a lost message runs once', async () => {
		const poll = await activePoll({});
		lostMessage(1, 'lost');

		expect(await pollLater(poll)).toEqual(['lost']);
	});

	// Holds since the poll refuses a credential other than the trigger's (sharedSettings.ts).
	it("R4-3 (runs what nobody asked for): a Catch-Up node whose credential is another account's (n8n preselects any credential of the type; a workflow copied for a second shop) follows the trigger of the first account, whose settings carry no account: it catches up the second account's chats by the first one's rules and runs them, though no trigger serves that account", async () => {
		// A second shop of the same plan, that gave inbox consent.
		const other = sandbox.state.accounts.get('acc_noconsent');
		if (other) other.inboxStorageConsent = true;
		lostMessage(2, 'to the other shop', { accountId: 'acc_noconsent' });
		const poll = await catchUpBeside(sandbox, grouping, sandbox.keys.noConsent);

		// The activation's first poll fails, naming the credential; nothing runs.
		await expect(poll.activate()).rejects.toThrow(/credential, "Sandbox", is not the one/);
		expect(poll.executions).toEqual([]);
	});

	// Holds since the Catch-Up node has the trigger's Paused Chats output (chatCatchUp.ts).
	it("R4-4 (nobody is told): with Human Takeover on, a missed message in a chat the account paused ('/bot off') is left by the Catch-Up node with a log line ('a person answers there, not the bot': R45b-2's fix), while the trigger's own catch-up sends the same burst to Paused Chats (takeoverOutput.ts), where the workflow tells the staff: the poll's customer is answered by nobody, and nothing reaches a person", async () => {
		const poll = await activePoll({ humanTakeover: true });
		const person = { phone: '491700009003', name: 'C' };
		sandbox.inject.injectMessage({ from: person, text: '/bot off', fromMe: true });
		sandbox.clock.advance(MINUTE);
		sandbox.inject.injectMessage({ from: person, text: 'is anyone there?' });

		expect(await pollLater(poll)).toEqual([]);
		expect(poll.paused.flat().map((item) => item.json.text)).toEqual(['is anyone there?']);
		expect(poll.paused.flat()[0].json.takeover).toMatchObject({ paused: true });
	});

	// Skipped, open: since issue-45e the poll starts its runs itself and the engine's poll host runs
	// them on the saved static data, where n8n runs an emitted run on the activation's workflow (its
	// static data as of that activation); the host cannot show R4-6 until it keeps that copy.
	it.skip("R4-6 (stale settings): n8n 2.40.7 re-publishes only the trigger nodes whose parameters changed (publication/trigger-diff.js, useWorkflowPublicationService on by default): the trigger edited (Catch Up Missed Messages turned off) and the workflow published again re-registers the trigger alone, and its checkExists writes the new settings into that activation's Workflow object and the database; the Catch-Up node, unchanged, keeps polling with the Workflow object of its own activation, whose static data still holds the old settings, so it goes on catching up by the old settings until n8n restarts (the same for a lower Max Age, new Filters, Human Takeover turned on, or the trigger deleted)", async () => {
		const poll = await activePoll({});
		// Edited and published again: only the trigger is registered anew (the database gets its settings).
		const republished = await catchUpBeside(sandbox, { ...grouping, catchUpMissed: false });
		poll.savedStaticData = {
			...poll.savedStaticData,
			global: republished.savedStaticData.global,
		};
		lostMessage(5, 'after the edit');

		const ran = await pollLater(poll);
		const saved = (poll.savedStaticData.global as IDataObject).messagingAutomationCatchUp;
		console.log(`R4-6: ran ${JSON.stringify(ran)}; the database holds ${JSON.stringify(saved)}`);
		expect(ran).toEqual([]);
	});
});
