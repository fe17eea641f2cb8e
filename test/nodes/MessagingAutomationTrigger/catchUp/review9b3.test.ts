import { describe, expect, it } from 'vitest';

import { entryOf, processedRecords } from '../../../support/processedData';
import type { N8nEngine } from '../../../support/n8nEngine';
import type { N8nPollHost } from '../../../support/n8nPoll';
import { useAnswerCatchUp } from './answerCatchUp';

/*
 * Review s9b (continued): what a run the Catch-Up poll started shows in n8n's Executions list (its
 * custom data, run/executionMarks.ts), read from each run's execution metadata.
 *
 * R9b-9 (words): the run of an answer burst whose offer a run ended (the Limits: "starts a run at
 * each poll that reads the chat after it changed, which passes nothing on") is marked
 * `messaging_automation: copy of a recorded run`. It is no copy: the poll started it, and it passes
 * nothing on because another run ended the answer's offer. The person reading the Executions list
 * finds one such execution per chat change, each named a copy.
 *
 * R9b-5's mark: a lost "1" the question took is marked both `messaging_automation_caught_up: <the 1>`
 * (caught up and run) and `messaging_automation: answered a Send and Wait question`.
 *
 * Below, R9b-10 (a key replaced in the same credential fails every poll-started run, ee14c19) and
 * R9b-11 (n8n's record full: two false log lines, and R9b-1's path past the vouching).
 */

const marks: string[] = [];

/** The custom data of each run `poll` starts (n8n's execution metadata), as marks. */
function readMarks(poll: N8nPollHost): void {
	const engine = (poll as unknown as { engine: N8nEngine }).engine;
	const run = engine.run.bind(engine);
	engine.run = async (...args: Parameters<N8nEngine['run']>) => {
		const result = await run(...args);
		const metadata = (result.run.data.resultData as { metadata?: Record<string, string> }).metadata;
		for (const [key, value] of Object.entries(metadata ?? {})) marks.push(`${key}: ${value}`);
		return result;
	};
}

const MINUTE = 60_000;
const {
	h,
	resumes,
	question,
	ask,
	say,
	start: startPair,
	claimedBefore,
	pollLater,
} = useAnswerCatchUp();

async function start() {
	marks.length = 0;
	const { poll } = await startPair({}, readMarks);
	return poll;
}

/** A "1" whose offer a run ended (refused, it ran), the question still waiting; a poll. */
async function endedOffer() {
	const poll = await start();
	await ask(question());
	h.sandbox.webhooks.faults.loseNext(1);
	const one = say('1');
	claimedBefore([`message|${one.id}`, `answer|${one.id}`, `settled|${one.id}`]);
	await pollLater(poll);
	return poll;
}

describe('review s9b: what a poll-started run shows (R9b-9, R9b-5)', () => {
	it('R9b-9: the run of an answer whose offer a run ended is not called a copy of a recorded run', async () => {
		await endedOffer();

		expect(marks.join('\n')).not.toContain('copy of a recorded run');
	});

	it('control (R9b-5): a lost "1" the question took is marked caught up and answered at once', async () => {
		const poll = await start();
		await ask(question());
		h.sandbox.webhooks.faults.loseNext(1);
		const one = say('1');
		await pollLater(poll);

		expect(resumes).toHaveLength(1);
		expect(marks).toEqual([
			`messaging_automation_caught_up: ${one.id}`,
			'messaging_automation: answered a Send and Wait question',
		]);
	});
});

/*
 * R9b-10 (ee14c19): the credential's key replaced in place (the same credential, a new key of the
 * same account pasted in: what the trigger's own error tells the builder to do when a key is
 * revoked, docs/credentials.md) after the workflow was published. The trigger shared its
 * credential's fingerprint (base URL and a hash of the key) at its activation, and the run a poll
 * starts now compares it with its own credential as it reads now: every such run fails, "This
 * node's credential ... is not the one the Messaging Automation Trigger ... uses: ... choose the
 * trigger's credential", though it is that very credential; the chat is not settled, so each poll
 * that finds it starts another failing run (an error execution a minute), and the lost message
 * never runs until the workflow is published again. The poll itself reads with the new key.
 */
describe('review s9b: a key replaced in the same credential (R9b-10)', () => {
	const failures: string[] = [];

	/** The workflow published, then the credential's key replaced by another of the same account; a lost message. */
	async function keyReplaced() {
		const poll = await start();
		const engine = (poll as unknown as { engine: N8nEngine }).engine;
		const run = engine.run.bind(engine);
		failures.length = 0;
		engine.run = async (...args: Parameters<N8nEngine['run']>) => {
			const result = await run(...args);
			if (result.error) failures.push(result.error.message);
			return result;
		};
		engine.credentialsHelper.set('messagingAutomationApi', {
			apiKey: h.sandbox.keys.member,
			baseUrl: h.sandbox.url,
			authScheme: 'bearer',
		});
		h.sandbox.webhooks.faults.loseNext(1);
		say('my parcel never came');
		await pollLater(poll);
		h.sandbox.clock.advance(MINUTE);
		await poll.poll();
		return poll;
	}

	// Fixed: the run compares the credential's id (movedCredential); S6-6 in catchUpPoll.test.ts holds a moved one.
	it('R9b-10: the lost message runs once, read and claimed with the new key', async () => {
		const poll = await keyReplaced();

		expect(poll.executions.flat().map((item) => item.json.text)).toEqual(['my parcel never came']);
	});
});

/*
 * R9b-11 (log, and R9b-1's path past the record's vouching): n8n's record of runs full (5,000
 * keys, a busy account's every day), a lost "1" with no person's message before it in the read:
 * runClaim.ts vouchedCatchUps drops the "1"'s `message|` key ("did not catch up ...: n8n's record of
 * runs ... cannot tell whether they ran") but keeps its `answer|` key, which the run claimed
 * itself; takeOverUnsettled then takes that for an earlier run's claim and offers the "1" ("were
 * claimed as answers by an earlier run that never ended their offer (n8n stopped or cancelled
 * it)"). The question takes it: two log lines, each false, and a message the record could not vouch
 * for offered all the same (had it run, as in R9b-1, it would be run and resumed).
 */
describe("review s9b: n8n's record full (R9b-11)", () => {
	it('R9b-11: the lost "1" is either not caught up or caught up, and the log says one thing', async () => {
		const poll = await start();
		await ask(question());
		processedRecords().set(
			'wf-test/',
			Array.from({ length: 5000 }, (_, index) => entryOf(`trigger-1|message|old-${index}`)),
		);
		h.sandbox.webhooks.faults.loseNext(1);
		say('1');
		await pollLater(poll);

		// Fixed (runClaim.ts withoutStrayClaims): the record cannot vouch for the "1", so it is not
		// caught up, and its answer claim is taken back: the log says that alone.
		expect(resumes).toEqual([]);
		const log = poll.warnings.join('\n');
		expect(log).toContain('did not catch up');
		expect(log).not.toContain('never ended their offer');
	});
});
