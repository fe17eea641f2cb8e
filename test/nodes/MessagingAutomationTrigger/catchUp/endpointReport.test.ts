import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { N8nPollHost } from '../../../support/n8nPoll';
import type { N8nWebhookHost } from '../../../support/n8nWebhook';
import { catchUpBeside, quickGrouping, useCatchUpBesideTrigger } from './catchUpFixtures';

/*
 * Seen, not silent (issue 45): while the workflow is active, the Catch-Up poll reads the trigger's
 * webhook endpoint and says, as an error execution of the poll (n8n 2.40.7: a poll that throws
 * after its activation's first poll), what stops events and what to do; at most once an hour, and
 * only after the poll's own catch-up went out, which the report never holds back.
 */

const MINUTE = 60_000;
const pair = useCatchUpBesideTrigger();

const person = { phone: '4917100039001', name: 'Person R' };
const texts = (poll: N8nPollHost) => poll.executions.flat().map((item) => item.json.text);

/** The endpoint id the trigger shared with the poll at its activation. */
function sharedEndpoint(host: N8nWebhookHost): string | undefined {
	const shared = (host.savedStaticData.global as IDataObject).messagingAutomationCatchUp as Record<
		string,
		IDataObject
	>;
	return Object.values(shared)[0]?.endpointId as string | undefined;
}

async function pollAfter(poll: N8nPollHost, ms: number) {
	pair.sandbox().clock.advance(ms);
	await poll.poll();
}

describe('Messaging Automation Catch-Up: the trigger endpoint report', () => {
	it('reports an endpoint the service disabled while active, with why and what to do, once an hour, and still catches up', async () => {
		const { trigger, poll } = await pair.start();
		const sandbox = pair.sandbox();
		const endpointId = sharedEndpoint(trigger);
		expect(endpointId).toMatch(/./);
		sandbox.webhooks.disable('gone', endpointId);
		sandbox.clock.advance(MINUTE);
		sandbox.inject.injectMessage({ from: person, text: 'hello, anybody?' });
		await pollAfter(poll, 4 * MINUTE);

		expect(texts(poll)).toEqual(['hello, anybody?']);
		expect(poll.failures).toHaveLength(1);
		const [report] = poll.failures as Array<Error & { description?: string }>;
		expect(report.message).toContain(`webhook endpoint ${endpointId}`);
		expect(report.description).toContain(
			`The service disabled this workflow's webhook endpoint ${endpointId} because`,
		);
		expect(report.description).toContain('resume the endpoint in the dashboard');

		for (let n = 0; n < 11; n++) await pollAfter(poll, 5 * MINUTE);
		expect(poll.failures).toHaveLength(1);
		await pollAfter(poll, 5 * MINUTE);
		expect(poll.failures).toHaveLength(2);
	});

	it('reports nothing while the endpoint delivers, nor when the trigger registered none (Registration: dashboard)', async () => {
		const { poll } = await pair.start();
		for (let n = 0; n < 3; n++) await pollAfter(poll, 5 * MINUTE);
		expect(poll.failures).toEqual([]);

		const dashboard = await catchUpBeside(pair.sandbox(), {
			...quickGrouping,
			registration: 'dashboard',
		});
		const shared = (dashboard.savedStaticData.global as IDataObject)
			.messagingAutomationCatchUp as Record<string, IDataObject>;
		expect(Object.values(shared)[0]).not.toHaveProperty('endpointId');
		await dashboard.activate();
		for (let n = 0; n < 3; n++) await pollAfter(dashboard, 5 * MINUTE);
		expect(dashboard.failures).toEqual([]);
	});
});
