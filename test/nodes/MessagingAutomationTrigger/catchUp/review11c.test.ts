import { DataDeduplicationService } from 'n8n-core';
import type { IDataDeduplicator } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { useAnswerCatchUp } from './answerCatchUp';
import { MessagingAutomationCatchUp } from '../../../../nodes/MessagingAutomationCatchUp/MessagingAutomationCatchUp.node';
import { MessagingAutomationTrigger } from '../../../../nodes/MessagingAutomationTrigger/MessagingAutomationTrigger.node';
import { besideWorkflow, catchUpBeside, quickGrouping, sandboxEngine } from './catchUpFixtures';

/*
 * Review s11c (fcbfc29, cddadd6, de39ceb), as an attacker and as a demanding user. Each `it.fails`
 * is a finding (R11c-n) that fails on de39ceb, beside a passing control.
 */

const MINUTE = 60_000;
const { h, asked, ask, question, say, start, pollLater } = useAnswerCatchUp();

/** n8n's store as the engine reaches it (test/support/processedData.ts, installed in n8n-core). */
const storeOf = () =>
	(DataDeduplicationService.getInstance() as unknown as { deduplicator: IDataDeduplicator })
		.deduplicator;

afterEach(() => vi.restoreAllMocks());

/**
 * The store fails (both attempts of a poll's claim) the first claim that records `message|<id>`
 * alone of `id`'s chat: the after-offers claim of a caught-up burst (afterOffers.ts).
 */
function failAfterOffersClaimOf(id: string): { failed: () => number } {
	const store = storeOf();
	const record = store.checkProcessedAndRecord.bind(store);
	let failed = 0;
	vi.spyOn(store, 'checkProcessedAndRecord').mockImplementation(
		async (items, scope, data, options) => {
			const afterOffers = items.length === 1 && String(items[0]).endsWith(`|message|${id}`);
			if (afterOffers && failed < 2) {
				failed++;
				throw new Error('SQLITE_BUSY: database is locked');
			}
			return await record(items, scope, data, options);
		},
	);
	return { failed: () => failed };
}

/*
 * R11c-1 (medium: a message lost where a person's Retry used to run it; cddadd6, R11-3; the loss
 * without a Retry is older). A poll's run whose step fails AFTER its first claim went through: here
 * n8n's store fails the claim of a caught-up burst's other messages, made once its answer offers
 * ended (afterOffers.ts claimedAfterOffers: refuseUnclaimed throws for a poll's run). Its offer of
 * the "1" ended there refused (the question stopped waiting between the poll's probe and the run's
 * offer: its link clicked, its time limit, the run held on a busy worker), so the "1" was to run as
 * an ordinary message in that run, which then failed. The next poll reads the chat again (the step
 * failed) and runs only "also, where is my parcel?": the "1" holds its `message|` and `answer|`
 * claims and its offer's tries and end are recorded, so no run offers or runs it again, though the
 * error says "the next poll catches them up again". Before cddadd6 n8n's Retry of that failed
 * execution ran all it held (retriedRun.ts; the control and this test pass with `if (mode ===
 * 'retry')` back); since R11-3 the Retry of a poll's run claims as the poll's run did, finds the
 * "1" held, and passes it nowhere either.
 * Seen on de39ceb (this test): the Retry and the polls after it pass on only the other message.
 * Smallest fix, tried locally: a poll's run whose offers ended does not refuse at the after-offers
 * claim (afterOffers.ts: `if (!fresh && !claimant.polled) refuseUnclaimed(...)`): it passes on
 * what is left, as a delivered run does there (twice beats never; a caught-up burst is quiet 3
 * minutes, so another run of its others at that moment is rare). This test and its control pass,
 * and so do run/afterOffers, run/caughtUp, catchUp/chatCatchUp, review9b, review9b2 and review11.
 * (Taking back the refused answers' `message|` claims before throwing is not enough: the Retry's
 * offer then finds the tries held, "offered by a later run", and runs it nowhere.)
 * Holds since a poll's run goes on when the store fails after its offers (afterOffers.ts).
 */
describe('review s11c: a Retry of a poll run that failed after its offers ended (R11c-1)', () => {
	async function refusedThenFailed(storeFails: boolean) {
		const { poll } = await start({ quietWindowSeconds: 3 });
		const engine = (poll as unknown as { engine: { run: (...args: unknown[]) => Promise<never> } })
			.engine;
		const definition = (poll as unknown as { definition: object }).definition;
		const starts: unknown[] = [];
		const errors: string[] = [];
		const run = engine.run.bind(engine);
		engine.run = async (...args: unknown[]) => {
			const [, startAt, mode] = args;
			if (mode === 'trigger') starts.push(startAt);
			const ran = (await run(...args)) as { nodeError: (name: string) => Error | undefined };
			errors.push(ran.nodeError('Catch-Up')?.message ?? '');
			return ran as never;
		};
		const { key } = await ask(question());
		// A burst of "1" and another, its events lost: the poll reads it while the question waits.
		h.sandbox.webhooks.faults.loseNext(2);
		const one = say('1');
		const other = say('also, where is my parcel?');
		poll.holdRuns = true;
		await pollLater(poll);
		// Before the poll's run (a busy worker) makes its offer, the question stopped waiting (its
		// link clicked, its time limit): the offer is refused, and the "1" is to run as a message.
		const waiting = asked.get(key);
		if (waiting) waiting.waiting = false;
		const failing = storeFails ? failAfterOffersClaimOf(other.id) : undefined;
		poll.holdRuns = false;
		await poll.releaseRuns();
		const ids = () =>
			poll.executions
				.flat()
				.flatMap((item) => (item.json.message_ids as string[] | undefined) ?? []);
		const all = [...ids()];
		expect(failing?.failed() ?? 2).toBe(2);
		// The run failed (de39ceb: refuseUnclaimed, "n8n's record of runs failed").
		if (errors.some((error) => error !== '')) {
			// A person clicks Retry on the failed execution.
			const retried = (await run(
				{ ...definition, staticData: JSON.parse(JSON.stringify(poll.savedStaticData)) },
				starts[0],
				'retry',
			)) as { output: (name: string) => Array<{ json: { message_ids?: string[] } }> };
			all.push(...retried.output('Catch-Up').flatMap((item) => item.json.message_ids ?? []));
		}
		// And the poll goes on.
		const polled = ids().length;
		for (let n = 0; n < 3; n++) {
			h.sandbox.clock.advance(MINUTE);
			await poll.poll();
		}
		return { ran: [...all, ...ids().slice(polled)], one: one.id, other: other.id };
	}

	it('control: the store working, the refused "1" runs as a message, once, with the other', async () => {
		const { ran, one, other } = await refusedThenFailed(false);
		expect(ran).toEqual([one, other]);
	});

	it('R11c-1: the store failing after the offers, a Retry of that run still runs the refused "1"', async () => {
		const { ran, one, other } = await refusedThenFailed(true);
		expect(ran.filter((id) => id === one)).toEqual([one]);
		expect(ran.filter((id) => id === other)).toEqual([other]);
	});
});

/*
 * R11c-3 (low: a test run hides a message the next poll runs; fcbfc29, R45b-5). A test run reads the
 * memory of this node's poll in this process whatever activation it belongs to (windowOf: `seen`
 * is memories.get(pollKey), not memoryOf), and that memory outlives its activation: n8n gives a
 * poll node no close, and no later poll of that activation ever settles it again. A chat whose run
 * was still going (`pending` 'running') when the workflow was deactivated, and whose run never
 * ends (n8n 1.123 never settles the promise of a run it could not start, nor of one a queue-mode
 * worker ran without saving it: pollMemory.ts RUN_GIVE_UP_POLLS), stays 'running' in it for good:
 * `unsettled` says no, and every test run hides that chat, while the next activation's poll (a
 * fresh memory, from the old floor, which moveFloor held below that chat) reads it and runs it.
 * Seen on de39ceb (this test): the test run shows nothing; the next activation runs the message.
 * Smallest fix (not tried): a test run trusts a memory's `pending` 'running' entries only while
 * that activation polls (e.g. the memory's lastPolledAt, on the process's clock, within a few Poll
 * Times intervals), else reads such chats; or counts them unsettled past RUN_GIVE_UP_POLLS minutes.
 * Holds since the test run trusts a 'running' entry only while its activation polls: past three of
 * its own poll gaps, on the service's clock (pollMemory.ts seenAt; pollMemory.test.ts). Within them
 * it still hides the chat; the test waits past them.
 */
describe('review s11c: a test run beside the memory of a deactivated poll (R11c-3)', () => {
	async function lostThenTested(releaseRun: boolean) {
		const poll = await catchUpBeside(h.sandbox, quickGrouping);
		await poll.activate();
		const message = h.sandbox.inject.injectMessage({
			from: { phone: '4917100011003', name: 'Person' },
			text: 'are you open sunday?',
		});
		expect(message.saved).toBe(true);
		// The poll's run starts; n8n never says how it ended (here: it never runs).
		poll.holdRuns = true;
		h.sandbox.clock.advance(4 * MINUTE);
		await poll.poll();
		if (releaseRun) {
			// control: the run went through before the deactivation.
			poll.holdRuns = false;
			await poll.releaseRuns();
		}
		poll.deactivate();
		// Past three of the activation's poll gaps (4 minutes here): it polls no more (pollMemory.ts seenAt).
		h.sandbox.clock.advance(13 * MINUTE);
		const shown = (await poll.testRun()).map((item) => String(item.json.text));
		// What the next poll runs: the workflow activated again.
		const before = poll.executions.flat().length;
		poll.holdRuns = false;
		await poll.activate();
		for (let n = 0; n < 2; n++) {
			h.sandbox.clock.advance(MINUTE);
			await poll.poll();
		}
		const next = poll.executions
			.flat()
			.slice(before)
			.map((item) => String(item.json.text));
		return { shown, next };
	}

	it('control: the run went through before the deactivation: the test run shows nothing, the next poll runs nothing', async () => {
		const { shown, next } = await lostThenTested(true);
		expect(next).toEqual([]);
		expect(shown).toEqual(next);
	});

	it('R11c-3: the run never ended: the test run shows what the next poll runs', async () => {
		const { shown, next } = await lostThenTested(false);
		expect(next).toEqual(['are you open sunday?']);
		expect(shown).toEqual(next);
	});
});

/*
 * R11c-4 (low: the text a user reads is false, on the Retry n8n offers by default; cddadd6, R11-2).
 * A poll's run that started before n8n saved the trigger's settings fails with RAN_BEFORE_SAVED
 * ("... while the workflow is published the next poll runs them: there is nothing to do"). n8n's
 * Retry of it, "Retry with original workflow" (the execution's own workflow data, its static data
 * as the run loaded it: no settings shared), now meets R11-2's check first (mode 'retry', no
 * `trigger` in the lookup) and throws testRunError: "Publish the workflow, then test this node
 * again", for a workflow that is published and whose poll runs. Before cddadd6 it said
 * RAN_BEFORE_SAVED again, which was true.
 * Seen on de39ceb (this test): the Retry's error is "Publish the workflow, then test this node again".
 * (Assumes, as I read n8n, that an execution's saved workflow data carries the static data the run
 * loaded; the test runs the step in mode 'retry' on that static data.)
 * Smallest fix (not tried): tell the two Retries apart by what the run holds: a Retry whose input
 * items are a poll's (caught-up bursts, `caught_up`, or Paused Chats' items) keeps RAN_BEFORE_SAVED
 * (perhaps adding "Retry with currently saved workflow"); a Retry of a test run (the manual start
 * item) throws testRunError. Holds since that fix (MessagingAutomationCatchUp.node.ts `polled`).
 */
describe("review s11c: n8n's Retry of a poll's run that started before the settings were saved (R11c-4)", () => {
	/** The Catch-Up node's step, a trigger set up right beside it, the workflow's static data as the run loaded it: none shared. */
	async function stepWithoutSettings(mode: 'trigger' | 'retry') {
		const engine = sandboxEngine(h.sandbox, {
			messagingAutomationCatchUp: new MessagingAutomationCatchUp(),
			messagingAutomationTrigger: new MessagingAutomationTrigger(),
		});
		const definition = besideWorkflow(
			{ events: ['message.received'], ...quickGrouping },
			{ triggerName: 'Trigger' },
		);
		const ran = await engine.run(
			{ ...definition, staticData: {} },
			// A poll's item, as it emits it: a caught-up burst.
			{
				node: 'Catch-Up',
				items: [
					{
						json: {
							text: 'are you open sunday?',
							message_ids: ['m-1'],
							caught_up: { reason: 'event never delivered' },
						},
					},
				],
			},
			mode,
		);
		return ran.nodeError('Catch-Up')?.message ?? '';
	}

	it("control: the poll's run itself says n8n had not saved the settings yet", async () => {
		expect(await stepWithoutSettings('trigger')).toMatch(/^Ran nothing yet: n8n had not yet saved/);
	});

	it('R11c-4: its Retry with the original workflow does not tell to publish a published workflow', async () => {
		const error = await stepWithoutSettings('retry');
		expect(error).not.toBe('');
		expect(error).not.toMatch(/Publish the workflow/);
	});
});
