import { describe, expect, it } from 'vitest';

import type { SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import {
	activeMessageTrigger,
	aliceWrites,
	attemptsOfMessage,
	passedRunTexts,
	useStoppedClock,
	waitFor,
} from '../fixtures';

/*
 * Carried deliveries (carriedDeliveries.ts): a message a read shows carried by a later one of its
 * burst is answered 2xx only once a recorded run holds it. Finding G (issue 43's simulator): the
 * burst's last event is lost and nothing follows; its carried deliveries were answered 200 on the
 * promise of a delivery that never came, and the burst never ran. The sandbox clock stands still;
 * the trigger's holds run on real time.
 */

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;

useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);

const write = (text: string) => aliceWrites(sandbox, text);
const attemptsOf = (id: string) => attemptsOfMessage(sandbox, trigger, id);

describe('a burst whose last event is lost, nothing after it', () => {
	it('runs once and whole from a carried delivery, each delivery answered only by a recorded run', async () => {
		trigger = await activeMessageTrigger(sandbox, {
			groupQuickMessages: true,
			quietWindowSeconds: 1,
			longestWaitSeconds: 10,
		});
		const first = write('my order 1234');
		sandbox.clock.advance(300);
		const second = write('has not arrived');
		sandbox.clock.advance(300);
		// Saved, its event never queued (the spec allows it): no delivery will say the burst is over.
		sandbox.webhooks.faults.loseNext(1);
		write('can you check?');
		await waitFor(
			() => attemptsOf(first.id).length >= 1 && attemptsOf(second.id).length >= 1,
			20_000,
		);
		await waitFor(() => passedRunTexts(trigger).length >= 1, 20_000);
		await trigger.settled();

		expect(passedRunTexts(trigger)).toEqual([
			['my order 1234', 'has not arrived', 'can you check?'],
		]);
		expect(trigger.executions).toHaveLength(1);
		// The first delivery's deadline came first: it started the run, n8n answered it once recorded;
		// the second, carried by that run, was answered once n8n had.
		const answers = [first, second].map((message) => attemptsOf(message.id));
		expect(answers.map((attempts) => attempts.map((attempt) => attempt.statusCode))).toEqual([
			[200],
			[200],
		]);
		expect(answers[1][0].completedAt).toBeGreaterThanOrEqual(answers[0][0].completedAt);
		expect(trigger.requests.map((request) => request.answeredBy)).toContain('n8n');
	});
});
