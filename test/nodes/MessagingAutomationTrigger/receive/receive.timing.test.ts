import { createRequire } from 'node:module';
import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { DEMO, type SandboxHandle } from '../../../sandbox';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { activeMessageTrigger, messageDeliveries, useStoppedClock, waitFor } from '../fixtures';

/*
 * The delivery path's timing (deliveryTiming.ts): one rule says whether a delivery is a retry, and
 * a held delivery's deadline counts from when the service sent it (its signed `webhook-timestamp`),
 * not from when n8n got round to the handler.
 */

const grouping: INodeParameters = {
	groupQuickMessages: true,
	quietWindowSeconds: 0.4,
	longestWaitSeconds: 10,
};

let sandbox: SandboxHandle;
let trigger: N8nWebhookHost;

useStoppedClock(
	(started) => void (sandbox = started),
	() => trigger,
);

/** The logger n8n-core hands nodes: from n8n-core's own copies of @n8n/di and @n8n/backend-common. */
function coreLogger(): { warn: (message: string) => void } {
	const fromCore = createRequire(createRequire(__filename).resolve('n8n-core'));
	const { Container } = fromCore('@n8n/di') as { Container: { get(type: unknown): unknown } };
	const { Logger } = fromCore('@n8n/backend-common') as { Logger: unknown };
	return Container.get(Logger) as { warn: (message: string) => void };
}

const answeredBy = () =>
	trigger.requests
		.filter((request) => !('ignored' in (request.body as object)))
		.map((request) => request.answeredBy);

describe("a run's delivery, retried or not", () => {
	it.each([
		[12, 'n8n', 0],
		[20, 'n8n', 1],
	])(
		'a delivery the service sent %s s after it queued the event, whose read took 4.5 s, is answered by %s and logged as late %s time(s)',
		async (lateS, by, lateLines) => {
			const warn = vi.spyOn(coreLogger(), 'warn');
			try {
				trigger = await activeMessageTrigger(sandbox, grouping);
				sandbox.faults.add({ tool: 'get_messages', kind: 'delay', delayMs: 4500 });
				// Held back by the service, then sent `lateS` after the event was queued.
				sandbox.webhooks.faults.reorderNext(2);
				sandbox.inject.injectMessage({ from: DEMO.alice, text: 'hi' });
				sandbox.clock.advance(lateS * 1000);
				sandbox.webhooks.faults.clear();
				await waitFor(() => trigger.executions.length >= 1, 20_000);
				await trigger.settled();

				expect(answeredBy()).toEqual([by]);
				const late = warn.mock.calls.filter(([line]) => String(line).includes('runs late'));
				expect(late).toHaveLength(lateLines);
			} finally {
				warn.mockRestore();
			}
		},
	);
});

describe("a held delivery's deadline", () => {
	it('counts from when the service sent it: n8n 3 s slow to start the handler still answers inside the 10 s', async () => {
		trigger = await activeMessageTrigger(sandbox, grouping);
		sandbox.clock.setSpeed(1);
		// A prompt delivery first, so the trigger knows the service's clock.
		sandbox.inject.injectMessage({ from: DEMO.alice, text: 'hello' });
		await waitFor(() => trigger.executions.length >= 1, 20_000);
		await trigger.settled();

		trigger.staticDataGapMs = 3000;
		sandbox.faults.add({ tool: 'get_messages', kind: 'rateLimited', times: 1000 });
		sandbox.inject.injectMessage({ from: DEMO.bob, text: 'anyone there?' });
		const [attempt] = await waitFor(() => {
			const bob = messageDeliveries(sandbox, trigger).filter((entry) =>
				entry.body?.includes('anyone there?'),
			);
			return bob.length > 0 && bob;
		}, 20_000);
		// Not settled (the service is busy): handed back in time, not timed out by the service.
		expect({ status: attempt.statusCode, error: attempt.error }).toEqual({
			status: 503,
			error: 'http_503',
		});
	});
});
