import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { DEMO, type SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { activeMessageTrigger, settledAfter, useStoppedClock, waitFor } from '../fixtures';
import { APPROVAL_RULES, startWaitingWebhook, type WaitingWebhook } from './waitingWebhook';

/*
 * Review of issue-43f (branch review-43f): the offer moved into the run's first step, which makes
 * an undecided offer again 3 s and 30 s later. Each `it.fails` is a finding (R43f-n) that fails on
 * the code as merged in eb80d0d; take `.fails` off once it is fixed.
 *
 * The stand-in for n8n 2.x's waiting webhook: a probe is answered at once; the first offer resumes
 * the execution and n8n's answer reaches the trigger only after the offer's 5 s time-out (the node
 * decided within its 3.5 s, then n8n took more than the 1.5 s left to it: loading a large
 * execution, a locked database, a busy host); every later request is refused with 409, as n8n 2.x
 * refuses an execution that no longer waits.
 */

/** Past the trigger's offer time-out (ANSWER_OFFER_TIMEOUT_MS, 5 s). */
const SLOW_ANSWER_MS = 5600;

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;
let server: WaitingWebhook;
let origin = '';
let resumed = false;
/** The executions resumed (each offer that resumed one). */
let resumes = 0;
/** Every offer (a request naming messages), in order, with n8n's status. */
const offers: number[] = [];

useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);

beforeAll(async () => {
	server = await startWaitingWebhook(({ messageIds }, respond) => {
		const reply = (status: number, json: unknown) => {
			if (messageIds.length > 0) offers.push(status);
			respond(status, json);
		};
		if (resumed) return reply(409, { message: 'The execution is not waiting' });
		if (messageIds.length === 0)
			return reply(200, { answered: false, waiting: true, rules: APPROVAL_RULES });
		resumed = true;
		resumes++;
		setTimeout(() => reply(200, { answered: true, messageId: messageIds[0] }), SLOW_ANSWER_MS);
	});
	origin = server.origin;
});

afterAll(() => server.close());

beforeEach(() => {
	resumed = false;
	resumes = 0;
	offers.length = 0;
});

const ran = () =>
	trigger.executions.flatMap((execution) => execution.items.map((item) => item.json.text));

describe('review 43f: answers offered by the run', () => {
	it('R43f-1: an offer that resumed its question but was answered after the 5 s time-out is made again 3 s later, refused (409, n8n 2.x): the "1" resumes the refund AND runs the bot (finding 9 back)', async () => {
		trigger = await activeMessageTrigger(sandbox, { answersToSendAndWait: true });
		trigger.waitingBaseUrl = `${origin}/webhook-waiting`;
		sandbox.clock.advance(1000);
		sandbox.inject.injectMessage({
			from: DEMO.alice,
			fromMe: true,
			text: `May we refund?\n\nReply 1 to Approve\n\nApprove: ${origin}/webhook-waiting/7/node-1?q=k1&chat=1&approved=true&signature=${'0'.repeat(64)}`,
		});
		sandbox.clock.advance(1000);
		sandbox.inject.injectMessage({ from: DEMO.alice, text: '1' });
		await settledAfter(sandbox, trigger, 1);
		await waitFor(() => offers.length >= 2, 20_000);
		await trigger.settled();
		expect(resumes).toBe(1);
		// The second offer was refused: the question had taken the "1" already.
		expect(offers).toEqual([200, 409]);
		expect(ran()).toEqual([]);
	}, 30_000);
});
