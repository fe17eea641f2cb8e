import { PollContext } from 'n8n-core';
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { messageDeliveries, waitFor } from '../fixtures';
import { MessagingAutomationCatchUp } from '../../../../nodes/MessagingAutomationCatchUp/MessagingAutomationCatchUp.node';
import { N8nPollHost } from '../../../support/n8nPoll';
import { entryOf, overwriteClaimOf, processedRecords } from '../../../support/processedData';
import {
	catchUpBeside,
	catchUpWorkflow,
	quickGrouping,
	sandboxEngine,
	useCatchUpBesideTrigger,
} from './catchUpFixtures';

/*
 * Review of issue 45e (the Catch-Up poll starts its own runs, holds its floor for a run not yet
 * ended, claims per trigger, reports the trigger's endpoint), as an attacker. Each `it.fails` is a
 * finding (R45e-n) that fails on the code as merged.
 */

const MINUTE = 60_000;
const pair = useCatchUpBesideTrigger();

const texts = (poll: N8nPollHost) => poll.executions.flat().map((item) => item.json.text);

function say(phone: string, text: string, afterMs = MINUTE) {
	const sandbox = pair.sandbox();
	sandbox.clock.advance(afterMs);
	const result = sandbox.inject.injectMessage({ from: { phone, name: 'Person' }, text });
	expect(result.saved).toBe(true);
	return result.message as unknown as IDataObject & { id: string };
}

async function pollEvery(poll: N8nPollHost, ms: number, times: number): Promise<void> {
	for (let n = 0; n < times; n++) {
		pair.sandbox().clock.advance(ms);
		await poll.poll();
	}
}

/** The trigger node ids the trigger shared with the poll (its claims' prefix). */
const sharedTriggers = (host: N8nWebhookHost) =>
	Object.keys(
		(host.savedStaticData.global as IDataObject).messagingAutomationCatchUp as IDataObject,
	);

const records = processedRecords;
const hash = entryOf;

describe('review 45e: the Catch-Up poll as an attacker', () => {
	// R45e-1: on n8n 1.123 the poll's done promise can stay pending for good, and then the chat is
	// 'running' in pollMemory for the activation's life: unsettled() never reads it again and
	// moveFloor() never passes it. Two ways, both in 1.123's dist: (a) __emit settles done only once
	// runWorkflow resolved (active-workflow-manager.js: `void executePromise.then(...)`, no rejection
	// path), so a run n8n could not start (database or Redis failing a moment, R45b-4's failure)
	// leaves the message never run; (b) queue mode with successful executions not saved: the worker
	// hard-deletes the execution, the main's findSingleExecution finds none and rejects without
	// finalizeExecution (workflow-runner.js), so every caught-up chat is held and a later lost
	// message in it never runs. The floor then stays stuck for good (on 2.40.7 too, for a run that
	// hangs), and every poll lists back to it. Here: a run emitted and never started or settled.
	// Holds since a run not ended after 10 polls is taken for failed (pollMemory.ts).
	it('R45e-1: a lost message still runs when n8n never settles the run the poll emitted', async () => {
		const { poll } = await pair.start();
		pair.sandbox().webhooks.faults.loseNext(1);
		say('4917100045001', 'hello? my order');
		poll.holdRuns = true;
		await pollEvery(poll, 4 * MINUTE, 1);
		// The run is never released: n8n 1.123 rejected runWorkflow, its done never settles.
		poll.holdRuns = false;
		await pollEvery(poll, 5 * MINUTE, 36);

		expect(texts(poll).filter((text) => text === 'hello? my order')).toHaveLength(1);
	});

	// R45e-2: claims were `message|<id>` before R45b-7 and are `<trigger id>|message|<id>` now, in
	// the same record. After an upgrade (a restart: a new activation looks back to its saved
	// lastPollAt), a message the trigger ran before it and nobody answered is caught up again: its
	// new key is fresh, and the record, never full, vouches for it.
	it.fails(
		'R45e-2: after an upgrade from `message|<id>` claims, a message the trigger ran does not run again',
		async () => {
			const { trigger, poll } = await pair.start();
			const sandbox = pair.sandbox();
			const message = say('4917100045002', 'just fyi, paid the invoice');
			await waitFor(() => messageDeliveries(sandbox, trigger).length >= 1, 20_000);
			await waitFor(() => trigger.executions.length >= 1, 20_000);
			await trigger.settled();
			const [triggerId] = sharedTriggers(trigger);
			// The claim as the version before R45b-7 made it.
			for (const [key, saved] of records())
				records().set(
					key,
					saved.map((entry) =>
						entry === hash(`${triggerId}|message|${message.id}`)
							? hash(`message|${message.id}`)
							: entry,
					),
				);
			poll.deactivate();
			await poll.activate();
			await pollEvery(poll, 4 * MINUTE, 3);

			expect(texts(poll)).not.toContain('just fyi, paid the invoice');
		},
	);

	// R45e-4: n8n's processed-data store reads a workflow's one record and writes it back whole
	// (deduplication-helper.js: findOne, then update, no lock), so with two workers a claim another
	// chat's run writes at the same moment can drop this one. With the Catch-Up poll that cost a
	// repeat whenever nobody answered in the chat: the poll read the chat, found the message
	// unanswered and its claim gone, and ran it a second time. Fixed with S6-1: every claim writes
	// its messages again a second later (claimStore.ts). Here: the trigger's claim of the message,
	// then the other worker's write of the record it read just before.
	it('R45e-4: a message whose claim a concurrent claim dropped does not run a second time', async () => {
		const { trigger, poll } = await pair.start();
		const sandbox = pair.sandbox();
		const message = say('4917100045004', 'noted, will pay friday');
		const drop = overwriteClaimOf(`message|${message.id}`);
		await waitFor(() => messageDeliveries(sandbox, trigger).length >= 1, 20_000);
		await waitFor(() => trigger.executions.length >= 1, 20_000);
		await trigger.settled();
		await waitFor(() => drop.restored(), 20_000);
		await pollEvery(poll, 4 * MINUTE, 3);

		expect(texts(poll)).not.toContain('noted, will pay friday');
	});

	// R45e-3: the endpoint report is held to one error execution an hour, but a poll whose listing
	// fails throws on every poll: inbox storage consent withdrawn (or the key's scope, or an outage
	// longer than the client's retries) makes an error execution, and an error-workflow run, every
	// poll, 60 an hour at a one-minute poll, for as long as it lasts.
	// Holds since a failed listing is thrown at most once an hour (endpointReport.ts listingFailure).
	it('R45e-3: a lasting listing failure is not an error execution every poll', async () => {
		const { poll } = await pair.start();
		const sandbox = pair.sandbox();
		const accounts = [...sandbox.state.accounts.values()];
		for (const account of accounts) account.inboxStorageConsent = false;
		try {
			await pollEvery(poll, MINUTE, 30);
		} finally {
			for (const account of accounts) account.inboxStorageConsent = true;
		}

		console.log(poll.failures[0].message, (poll.failures[0] as any).description);
		expect(poll.failures.length).toBeLessThanOrEqual(2);
	});

	// R45e-5: list_conversations pages by an opaque cursor, the sandbox's an offset (inboxReads.ts),
	// as many services' are. A sweep (R45b-6) goes on from the cursor at the next poll; a chat above
	// it deleted meanwhile (delete_chat, or a number filter hiding it) moves every chat below up by
	// one, so the first one below is never listed. The sweep then ends, the floor moves past it, and
	// its missed message never runs nor is counted as left. Holds since a sweep goes on by listing its
	// last page again (catchUpPoll.ts listChats).
	it('R45e-5: a chat deleted above the cursor of a cut listing does not hide the next one from the sweep', async () => {
		const sandbox = pair.sandbox();
		const poll = await catchUpBeside(sandbox, quickGrouping);
		await poll.activate();
		poll.deactivate();
		say('4917100045005', 'hello? anyone at all?', 10 * MINUTE);
		const busy: string[] = [];
		for (let n = 0; n < 300; n++) {
			const other = { phone: `4917300${String(10_000 + n)}`, name: `Busy ${n}` };
			busy.push(say(other.phone, 'where is my order', 1_000).conversation_id as string);
			sandbox.clock.advance(200);
			sandbox.inject.injectMessage({ from: other, fromMe: true, text: 'on its way' });
		}
		sandbox.clock.advance(10 * MINUTE);
		await poll.activate();
		const read = () =>
			new Set(
				sandbox
					.calls()
					.filter((call) => call.tool === 'get_messages')
					.map((call) => (call.input as { conversationId?: string }).conversationId),
			);
		for (let n = 0; n < 10 && busy.some((id) => !read().has(id)); n++)
			await pollEvery(poll, MINUTE, 1);
		// The three pages listed are read; the sweep goes on from its cursor. One of them is deleted.
		for (const account of sandbox.state.accounts.values()) account.chats.delete(busy[0]);
		await pollEvery(poll, MINUTE, 5);

		expect(texts(poll)).toContain('hello? anyone at all?');
	});

	// R45e-6: n8n 1.123's node contexts have no `customData` (2.x added it to NodeExecutionContext):
	// runClaim.ts sets it after the claim (logCatchUp; 'copy of a recorded run'), so on 1.123 every
	// Catch-Up run fails with "Cannot read properties of undefined (reading 'set')" once its claim
	// is recorded. The message never runs; the poll, seeing the run fail at its own step, emits the
	// chat again at every poll, whose run (nothing fresh) fails the same way: an error execution a
	// poll for good. Seen in real n8n 1.123.81 (catchUp.test.mts run there: both cases fail, each
	// execution's error that TypeError). Here: n8n-core's context without customData, as in 1.123.
	// Holds since runClaim.ts sets custom data only where the context has it.
	it('R45e-6: on n8n 1.123 (no customData on node contexts) a lost message runs once, no error every poll', async () => {
		const base = Object.getPrototypeOf(PollContext.prototype) as object;
		const own = Object.getOwnPropertyDescriptor(base, 'customData') as PropertyDescriptor;
		Object.defineProperty(base, 'customData', { configurable: true, get: () => undefined });
		try {
			const { poll } = await pair.start();
			pair.sandbox().webhooks.faults.loseNext(1);
			say('4917100045006', 'do you ship to vienna?');
			await pollEvery(poll, 4 * MINUTE, 4);

			expect(texts(poll).filter((text) => text === 'do you ship to vienna?')).toHaveLength(1);
		} finally {
			Object.defineProperty(base, 'customData', own);
		}
	});

	// R45e-7: the Catch-Up node has a credential of its own, and nothing checks that it is the
	// trigger's account (staging and production credentials side by side are common). Its hourly
	// endpoint report then reads the trigger's endpoint id in another account and tells the user,
	// as an error execution, that the endpoint was deleted and to deactivate and activate the
	// workflow, which changes nothing; the real mistake (the credential) is never named.
	// Holds since the trigger shares its credential's fingerprint and the poll refuses another.
	it("R45e-7: a Catch-Up credential of another account than the trigger's is named, not reported as a deleted endpoint", async () => {
		const { trigger } = await pair.start();
		const sandbox = pair.sandbox();
		// Another account of the full plan with its inbox readable (the consentless one, given consent).
		const account = sandbox.state.accounts.get('acc_noconsent');
		if (account) account.inboxStorageConsent = true;
		const { definition } = catchUpWorkflow(sandbox);
		const other = sandboxEngine(
			{ ...sandbox, keys: { ...sandbox.keys, owner: sandbox.keys.noConsent } },
			{ messagingAutomationCatchUp: new MessagingAutomationCatchUp() },
		);
		const poll = new N8nPollHost(other, definition, 'Catch-Up');
		poll.savedStaticData = {
			global: JSON.parse(JSON.stringify(trigger.savedStaticData.global)) as IDataObject,
		};
		// The activation's first poll fails, naming the credential; nothing is read or reported.
		await expect(poll.activate()).rejects.toThrow(/credential, "Sandbox", is not the one/);
		expect(poll.executions).toEqual([]);
	});
});
