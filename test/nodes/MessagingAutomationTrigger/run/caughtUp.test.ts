import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO, type SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { overwriteClaimOf, claimOthers, failProcessedData } from '../../../support/processedData';
import { activeMessageTrigger, messageDeliveries, useStoppedClock, waitFor } from '../fixtures';

/*
 * Catch Up Missed Messages (run/caughtUp.ts): the service saves a message and never delivers its
 * event (lost before it was queued, or its delivery ran out of retries); when the person writes
 * again, the read that burst makes anyway shows it, and it runs once, in its own burst, marked
 * caught up. The sandbox clock stands still and is moved by hand.
 */

const grouping = (extra: INodeParameters = {}): INodeParameters => ({
	groupQuickMessages: true,
	quietWindowSeconds: 0.4,
	longestWaitSeconds: 10,
	...extra,
});
const MINUTE = 60_000;
/** The person writes again past CATCH_UP_AFTER_MS (catchUp.ts): a missed burst is caught up then. */
const LATER = 3.5 * MINUTE;

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;

useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);

/** The trigger's activation moved `ms` back, where n8n keeps it (the node's static data). */
function activatedAgo(ms: number) {
	const saved = trigger.savedStaticData['node:Trigger'] as IDataObject;
	trigger.savedStaticData = {
		...trigger.savedStaticData,
		'node:Trigger': { ...saved, activatedAt: Date.now() - ms },
	};
}

async function activeTrigger(parameters: INodeParameters = grouping()) {
	trigger = await activeMessageTrigger(sandbox, parameters);
	// Activated ten minutes ago, past the activation's slack (catchUp.ts): what follows was written
	// after the trigger existed. (Moving the sandbox's clock instead would read as the service's clock
	// running ahead of n8n's, which moves the activation with it.)
	activatedAgo(10 * MINUTE);
}

function say(text: string, afterMs = 0, extra: { fromMe?: boolean } = {}) {
	sandbox.clock.advance(afterMs);
	const result = sandbox.inject.injectMessage({ from: DEMO.alice, text, ...extra });
	expect(result.saved).toBe(true);
	return result.message as { id: string };
}

const reads = () => sandbox.calls().filter((call) => call.tool === 'get_messages');
/** Each run's items as they left the trigger's step: their texts, and caught_up where set. */
const runs = () =>
	trigger.executions.map((execution) =>
		execution.outputs.flat().map((item) => ({
			text: item.json.text,
			...(item.json.caught_up ? { caught_up: item.json.caught_up as IDataObject } : {}),
		})),
	);

async function settledAfter(deliveries: number, executions = 1) {
	await waitFor(() => messageDeliveries(sandbox, trigger).length >= deliveries, 20_000);
	await waitFor(() => trigger.executions.length >= executions, 20_000);
	await trigger.settled();
}

/**
 * The person asks twice, a minute apart, and says thanks 3.5 minutes later; the bot answers after the
 * first question (`answeredFirst`) or after both. `dropFirstClaim`: another process's claim at the
 * same moment drops the first run's claim (review s6, S6-1).
 */
async function twoQuestionsThenThanks(options: {
	answeredFirst: boolean;
	dropFirstClaim: boolean;
}) {
	await activeTrigger();
	const first = say('first question');
	const drop = options.dropFirstClaim ? overwriteClaimOf(`message|${first.id}`) : undefined;
	await settledAfter(1);
	// The person's next message comes a minute on, long after the run's second write of its claim;
	// the bot's answer right after the burst keeps it from the catch-up whether that came or not.
	if (drop) await waitFor(() => (options.answeredFirst ? drop.dropped() : drop.restored()), 20_000);
	if (options.answeredFirst) say('here you go', 10_000, { fromMe: true });
	say('second question', MINUTE);
	await settledAfter(2, 2);
	if (!options.answeredFirst) say('here you go', 10_000, { fromMe: true });
	say('thanks', LATER);
	await settledAfter(3, 3);
	return runs();
}

const EACH_ONCE = [
	[{ text: 'first question' }],
	[{ text: 'second question' }],
	[{ text: 'thanks' }],
];

describe('catching up a message the service saved but never delivered', () => {
	it.each([
		['whose event was never queued', 'lose'],
		['whose delivery ran out of retries', 'exhaust'],
	] as const)(
		'runs a message %s once, in its own burst, marked caught up, when the person writes again, with no extra read',
		async (_, fault) => {
			await activeTrigger();
			if (fault === 'lose') sandbox.webhooks.faults.loseNext(1);
			else sandbox.webhooks.faults.exhaustNext(1);
			say('I need help with order 4411');
			say('hello?', LATER);
			await settledAfter(fault === 'lose' ? 1 : 2);

			expect(runs()).toEqual([
				[
					{ text: 'hello?' },
					{
						text: 'I need help with order 4411',
						caught_up: {
							reason: 'event never delivered',
							// Three and a half minutes on the sandbox clock, plus the test's own real seconds.
							age_seconds: expect.toSatisfy((age: number) => age >= 210 && age < 220) as unknown,
							// The person's message before it in the seeded chat, whose claim vouches for the record.
							previous_message_id: expect.any(String) as unknown,
						},
					},
				],
			]);
			expect(reads()).toHaveLength(1);
			const [, caught] = trigger.executions[0].outputs.flat();
			expect(caught.json).toMatchObject({
				event_type: 'message.received',
				conversation_id: `${DEMO.alice.phone}@s.whatsapp.net`,
				burst: { message_count: 1, closed_by: 'quiet_window' },
			});
			expect(caught.json.event_id).toMatch(/^evt_caught_up:/);
		},
	);

	it('runs nothing for a delivery of the caught-up message that comes after all', async () => {
		await activeTrigger();
		sandbox.webhooks.faults.loseNext(1);
		say('is anyone there');
		say('hello?', LATER);
		await settledAfter(1);
		const [, caught] = trigger.executions[0].outputs.flat();
		const message = (caught.json.messages as IDataObject[])[0];

		// The service repairs the gap: the message's event comes late.
		sandbox.clock.advance(MINUTE);
		sandbox.webhooks.emit('acc_demo', 'message.received', { message });
		await settledAfter(2, 2);

		expect(runs()).toEqual([
			[{ text: 'hello?' }, { text: 'is anyone there', caught_up: expect.any(Object) as unknown }],
			[],
		]);
	});

	it('adds nothing when every event was delivered: each burst runs once, one read each', async () => {
		await activeTrigger();
		say('first question');
		await settledAfter(1);
		say('second question', MINUTE);
		await settledAfter(2, 2);

		expect(runs()).toEqual([[{ text: 'first question' }], [{ text: 'second question' }]]);
		expect(reads()).toHaveLength(2);
	});

	it('runs nothing twice while n8n cannot say for a moment what ran before (its database failing): a message that ran is never run again', async () => {
		await activeTrigger();
		say('first question');
		await settledAfter(1);
		// The store fails twice at the next burst's claim: the claim waits it out (claimStore.ts),
		// and the burst's earlier message (which no account message followed) is not taken for a
		// missed one. Past the claim's waits, simulator/review4.test.ts.
		failProcessedData(2);
		say('second question', LATER);
		await settledAfter(2, 2);

		expect(runs()).toEqual([[{ text: 'first question' }], [{ text: 'second question' }]]);
	});

	it('never catches up a message written before the workflow was activated', async () => {
		say('written while no trigger existed');
		trigger = await activeMessageTrigger(sandbox, grouping());
		say('hello?', 5 * MINUTE);
		await settledAfter(1);

		expect(runs()).toEqual([[{ text: 'hello?' }]]);
	});

	it('leaves a missed message with Catch Up Missed Messages off', async () => {
		await activeTrigger(grouping({ catchUpMissed: false }));
		sandbox.webhooks.faults.loseNext(1);
		say('lost');
		say('hello?', 3 * MINUTE);
		await settledAfter(1);

		expect(runs()).toEqual([[{ text: 'hello?' }]]);
	});

	it('leaves a missed message older than the limit', async () => {
		trigger = await activeMessageTrigger(sandbox, grouping({ catchUpHours: 0.25 }));
		// Activated two hours ago; the lost message needs no delivery, so its time can be 20 min back.
		activatedAgo(2 * 60 * MINUTE);
		sandbox.clock.set(Date.now() - 20 * MINUTE);
		sandbox.webhooks.faults.loseNext(1);
		say('lost twenty minutes ago');
		sandbox.clock.set(Date.now());
		say('hello?');
		await settledAfter(1);

		expect(runs()).toEqual([[{ text: 'hello?' }]]);
	});

	// Review s5, R5-4: a burst left unclaimed (a lost event here; a "Not run" execution alike) and
	// followed within 3 minutes by the person's next message, which the bot answered: the account's
	// answer was taken to answer the burst before it too, so nothing ever caught it up.
	it('catches up a missed message at a later message though the bot answered the message after it', async () => {
		await activeTrigger();
		sandbox.webhooks.faults.loseNext(1);
		say('lost');
		say('hello?', MINUTE);
		await settledAfter(1);
		say('hi! how can I help?', 10_000, { fromMe: true });
		say('thanks', LATER);
		await settledAfter(2, 2);

		expect(runs()).toEqual([
			[{ text: 'hello?' }],
			[{ text: 'thanks' }, { text: 'lost', caught_up: expect.any(Object) as unknown }],
		]);
	});

	it('control: runs no message twice that ran before the bot answered a later one', async () => {
		expect(await twoQuestionsThenThanks({ answeredFirst: false, dropFirstClaim: false })).toEqual(
			EACH_ONCE,
		);
	});

	it('leaves a missed message the account wrote after (a reply typed on the phone answered it)', async () => {
		await activeTrigger();
		sandbox.webhooks.faults.loseNext(1);
		say('lost');
		say('on it, one moment', 30_000, { fromMe: true });
		say('thanks!', LATER);
		await settledAfter(1);

		expect(runs()).toEqual([[{ text: 'thanks!' }]]);
	});
});

/*
 * Review of issue 45's first slice (attacker): each case below failed on the code it was written
 * against. Two stay it.fails, named in docs/conversations.md: R5, n8n's clock more than the
 * activation's 60 s slack behind the service's; R2, a lost burst
 * is caught up only by a burst that closes CATCH_UP_AFTER_MS (3 min) after it, since a younger one
 * may still be held for its own run (the simulator's late and readFaults families split bursts
 * when it was taken at once), so a message written seconds after it and then nothing leaves it.
 * R1 is fixed for a store failing less than the claim's 25.5 s of waits; past them a burst's own
 * run still goes on unclaimed (twice beats never), so a later burst cannot know it ran.
 */
describe('review 45: catch-up findings', () => {
	// Finding R1 (twice): when the store failed a delivered burst's claim, that burst ran unclaimed
	// ("twice beats never"); the person's next message then caught it up as never delivered and it
	// ran a second time, although its delivery arrived and ran. Fixed for a store failing less than
	// the claim's waits (claimStore.ts: CLAIM_WAITS_MS).
	it('runs a delivered message once when the store failed its own claim twice', async () => {
		await activeTrigger();
		failProcessedData(2);
		say('first question');
		await settledAfter(1);
		say('second question', LATER);
		await settledAfter(2, 2);

		expect(runs()).toEqual([[{ text: 'first question' }], [{ text: 'second question' }]]);
	});

	// Finding R2 (lost): a lost message whose burst closed less than 10 s before the next burst's
	// read is left "for a later burst"; when the person writes nothing more, it never runs, though
	// the person wrote again. With the default 5 s quiet window: any second message 5 to 9.7 s after.
	it.fails(
		'runs a lost message when the person writes again a few seconds later and then nothing',
		async () => {
			await activeTrigger();
			sandbox.webhooks.faults.loseNext(1);
			say('hi');
			say('I need help with order 4411', 5_000);
			await settledAfter(1);
			sandbox.clock.advance(30 * MINUTE);
			await trigger.settled();

			expect(
				runs()
					.flat()
					.map((item) => item.text),
			).toEqual(['I need help with order 4411', 'hi']);
		},
	);

	// Finding R3 (twice): the claims are one ring of 5,000 messages per trigger, shared by every chat.
	// A message that ran and that the account has not answered yet (a paused chat waiting for an
	// agent, a chat the workflow chose not to answer) runs again, "caught up", at the person's next
	// message once the account's other chats claimed 5,000 messages: 12 minutes at 150 bursts of 3
	// a minute, the load conversations.md measures, not "a workflow that never writes back".
	it('never runs a message twice because other chats pushed its claim out', async () => {
		await activeTrigger();
		say('first question');
		await settledAfter(1);
		// The sandbox clock stays within the signature's tolerance of n8n's: 3 minutes stand for 12.
		claimOthers(5000, 5000);
		say('second question', LATER);
		await settledAfter(2, 2);

		expect(runs()).toEqual([[{ text: 'first question' }], [{ text: 'second question' }]]);
	});

	// Finding R4 (the current message dropped): the caught-up burst comes first in the run, so every
	// node that acts once per execution on item 0 acts on the old message and drops the person's
	// current one: this package's Send and Wait asks "for the first item" only (sendAndWait/execute.ts),
	// and on resume passes only the answer on; so do Execute Once and `$('Trigger').first()`.
	it("still catches up on a busy trigger whose record of runs is full, while it holds the person's message before the lost one", async () => {
		await activeTrigger();
		// The record is full of other chats' claims before this chat's first question runs.
		say('an earlier message');
		await settledAfter(1);
		// Other chats' runs fill the record up: this chat's earlier message is its oldest claim.
		claimOthers(4999, 5000);
		say('ok, noted', 30_000, { fromMe: true });
		sandbox.webhooks.faults.loseNext(1);
		say('lost', 1000);
		say('hello?', LATER);
		await settledAfter(2, 2);

		expect(runs()).toEqual([
			[{ text: 'an earlier message' }],
			[{ text: 'hello?' }, { text: 'lost', caught_up: expect.any(Object) as unknown }],
		]);
	});

	it('keeps the delivered burst as the first item of its run', async () => {
		await activeTrigger();
		sandbox.webhooks.faults.loseNext(1);
		say('lost');
		say('hello?', LATER);
		await settledAfter(1);

		expect(runs()[0][0]).toEqual({ text: 'hello?' });
	});

	// Finding R5 (caught up though written before activation): the floor is n8n's Date.now() at
	// registration plus a fixed 60 s slack, compared with the service's timestamps. With n8n's clock
	// 90 s behind the service's (well inside the signature's 300 s tolerance), a message written
	// before the workflow existed runs as "never delivered".
	it.fails(
		"never catches up a message written before activation when n8n's clock is 90 s behind",
		async () => {
			sandbox.clock.set(Date.now() + 90_000);
			say('written while no trigger existed');
			trigger = await activeMessageTrigger(sandbox, grouping());
			say('hello?', 3 * MINUTE);
			await settledAfter(1);

			expect(runs()).toEqual([[{ text: 'hello?' }]]);
		},
	);
});

/*
 * Review s6 (attacker) of issue-43k's R5-4 (catchUp.ts `answered`): a burst the person followed with
 * another before the bot answered stays a catch-up candidate for the whole Max Age (1 h by default,
 * up to 24 h), at the person's next message 3 minutes on and at every Catch-Up poll, and only its
 * claim keeps it from running again. docs/conversations.md says a claim dropped by two processes
 * claiming at the same moment (queue mode: n8n's store reads the record and writes it back whole)
 * "costs nothing by itself"; before R5-4 such a burst was no candidate once the bot answered after it.
 */
describe('review s6: a dropped claim and the widened catch-up', () => {
	// S6-1 (twice): the person writes again before the bot answers (a bot slower than the person);
	// the first burst's claim is dropped by another worker's write at the same moment; 3.5 minutes
	// later the person's next message catches the first burst up as "never delivered": it runs twice.
	it("S6-1: runs a message once that ran, when another process's claim at the same moment dropped its claim and the person wrote again before the bot answered", async () => {
		expect(await twoQuestionsThenThanks({ answeredFirst: false, dropFirstClaim: true })).toEqual(
			EACH_ONCE,
		);
	});

	it('S6-1 control: the same dropped claim costs nothing when the bot answered right after the burst', async () => {
		expect(await twoQuestionsThenThanks({ answeredFirst: true, dropFirstClaim: true })).toEqual(
			EACH_ONCE,
		);
	});
});
