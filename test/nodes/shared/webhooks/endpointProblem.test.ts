import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { endpointProblem } from '../../../../nodes/shared/webhooks/endpointProblem';
import { DEMO, SandboxClock, startSandbox, type SandboxHandle } from '../../../sandbox';
import { testClient, type TestClient } from '../../../support/testClient';

/*
 * endpointProblem against the sandbox: what the service's record of an endpoint says, in words a
 * user acts on. The sandbox clock stands still and is moved by hand through the retry schedule.
 */

let sandbox: SandboxHandle;
let harness: TestClient;
let receiver: Server;
let receiverUrl: string;
/** The receiver's next answers (200 once they run out). */
let answers: number[] = [];

beforeAll(async () => {
	sandbox = await startSandbox({ clock: new SandboxClock({ speed: 0 }) });
	harness = testClient(sandbox.url, sandbox.keys.owner);
	receiver = createServer((req, res) => {
		req.resume();
		req.on('end', () => res.writeHead(answers.shift() ?? 200).end());
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
	await harness.close();
	await sandbox.stop();
	await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(() => {
	sandbox.reset();
	answers = [];
});

const settle = async () => await new Promise((resolve) => setTimeout(resolve, 150));

async function registered(): Promise<string> {
	const { data } = await harness.client.webhooks.create({
		url: receiverUrl,
		event_types: ['message.received'],
	});
	await settle(); // its webhook.test, delivered
	return data.id;
}

/** A message whose delivery runs `attempts` attempts on the service's retry schedule. */
async function deliveredAfter(attempts: number) {
	sandbox.inject.injectMessage({ from: DEMO.alice, text: 'hello' });
	await settle();
	for (const delay of [30_000, 120_000, 600_000].slice(0, attempts - 1)) {
		sandbox.clock.advance(delay * 1.25);
		await settle();
	}
}

describe('endpointProblem', () => {
	it('says nothing of an endpoint that delivers, nor of a delivery handed back once and then delivered', async () => {
		const id = await registered();
		answers = [503];
		await deliveredAfter(1);
		expect(await endpointProblem(harness.client, id)).toBeUndefined();
		await deliveredAfter(2);
		expect(await endpointProblem(harness.client, id)).toBeUndefined();
	});

	it('names a disabled endpoint, why, and what to do', async () => {
		const id = await registered();
		sandbox.webhooks.disable('gone', id);
		const gone = await endpointProblem(harness.client, id);
		expect(gone).toContain(
			`The service disabled this workflow's webhook endpoint ${id} because ${receiverUrl} answered 410 Gone`,
		);
		expect(gone).toContain('resume the endpoint in the dashboard (Developers → Webhooks)');

		const other = await registered();
		sandbox.webhooks.disable('consecutive_failures', other);
		expect(await endpointProblem(harness.client, other)).toContain(
			'after 100 failed deliveries in a row over three days, so no events arrive',
		);
	});

	it('names a paused endpoint and a deleted one', async () => {
		const id = await registered();
		await harness.client.webhooks.pause(id);
		expect(await endpointProblem(harness.client, id)).toContain(`${id} is paused`);
		await harness.client.webhooks.delete(id);
		expect(await endpointProblem(harness.client, id)).toContain(
			`${id} this workflow registered no longer exists`,
		);
	});

	it('says deliveries fail once one has failed for its first four attempts, with the last error', async () => {
		const id = await registered();
		answers = [500, 500];
		await deliveredAfter(3);
		expect(await endpointProblem(harness.client, id)).toBeUndefined();

		answers = [502, 502, 502, 502];
		await deliveredAfter(4);
		const problem = await endpointProblem(harness.client, id);
		expect(problem).toContain(
			`Deliveries to ${receiverUrl} are failing: 1 event not delivered (the newest after 4 attempts: HTTP 502)`,
		);
		expect(problem).toContain("n8n's WEBHOOK_URL");
		expect(problem).toContain('resend the failed deliveries');
	});

	it('says deliveries that ran out of their nine attempts failed for good, until a later one is delivered', async () => {
		const id = await registered();
		sandbox.webhooks.faults.exhaustNext(1);
		sandbox.inject.injectMessage({ from: DEMO.alice, text: 'never delivered' });
		for (let attempt = 0; attempt < 9; attempt++) {
			sandbox.clock.advance(16 * 3_600_000);
			await settle();
		}
		expect(await endpointProblem(harness.client, id)).toContain(
			'1 event not delivered (the newest after 9 attempts: no answer (sandbox fault: exhaust)), 1 of them failed for good.',
		);
		await deliveredAfter(1);
		expect(await endpointProblem(harness.client, id)).toBeUndefined();
	});

	it('says a read the service refuses for another reason (a revoked key) as the problem it is', async () => {
		const id = await registered();
		const wrongKey = testClient(sandbox.url, 'mk_revoked_key_0000000000');
		try {
			expect(await endpointProblem(wrongKey.client, id)).toMatch(
				new RegExp(`^Could not check this workflow's webhook endpoint ${id}: .*API key`),
			);
		} finally {
			await wrongKey.close();
		}
	});
});
