import { describe, expect, it } from 'vitest';

import { DEMO } from '../../../../sandbox';
import { FAULTS, startChaosProxy } from '../../../../support/chaosProxy';
import { fieldsParameters } from '../../harness';
import { chaosPhone, CLEAN, EXECUTIONS, useChaosRun } from './sendsUnderFaults';

/*
 * "Nothing sent twice, nothing lost, nothing leaked", in short: sends through the action node in
 * n8n's WorkflowExecute with our own chaos proxy (not the sandbox's fault injection) between the
 * node and the sandbox, dealing a fault to a seeded random half of all requests, each fault in
 * turn: resets before forwarding, after forwarding and mid-body, HTML 502 and 200, truncated JSON,
 * empty and null bodies, 302/307 to another local port, stalls and slow-drip answers. The
 * 1,000-send acceptance, with the faults themselves drawn at random, is in guardedCall.soak.test.ts.
 */

const SENDS = 100;
const SEED = 20261124;

const chaos = useChaosRun();

describe('sends through a chaos proxy', () => {
	it(`${SENDS} sends, half of all requests faulty: 0 duplicates, 0 lost, 0 false successes, 0 raw errors, 0 keys at the other port`, async () => {
		const { counts, dealt } = await chaos.run({
			sends: SENDS,
			faultRate: 0.5,
			seed: SEED,
			from: 0,
			inTurn: true,
		});
		expect(counts).toMatchObject(CLEAN);
		// The run really met every fault, each several times.
		for (const fault of FAULTS) expect(dealt[fault] ?? 0).toBeGreaterThanOrEqual(5);
		expect(counts.succeeded).toBeGreaterThan(SENDS * 0.8);
	});

	it('sends that never get a clean answer fail saying it is unknown whether they went out: get_operation said no, the resends could not tell', async () => {
		const doomed = new Set([chaosPhone(50_001), chaosPhone(50_004), chaosPhone(50_007)]);
		const { counts } = await chaos.run({
			sends: EXECUTIONS,
			faultRate: 0,
			seed: SEED + 1,
			from: 50_000,
			doomed,
		});
		expect(counts).toMatchObject({
			...CLEAN,
			succeeded: EXECUTIONS - doomed.size,
			failedUnknown: doomed.size,
		});
	});

	it('an answer trickled past the time-out is given up at the time-out in every attempt, then settled by its key', async () => {
		// n8n's request helper replaces the abort signal a node passes with the execution's own, so
		// only a deadline the transport keeps itself ends the call before the answer's last byte.
		const { h } = chaos;
		const proxy = await startChaosProxy({
			target: h.sandbox.url,
			redirectTo: h.sandbox.url,
			choose: ({ path }) => (path.endsWith('/send_message') ? 'slowDrip' : 'pass'),
		});
		try {
			h.engine.credentialsHelper.set('messagingAutomationApi', {
				apiKey: h.sandbox.keys.owner,
				baseUrl: proxy.url,
				authScheme: 'bearer',
			});
			const parameters = fieldsParameters(
				'send_message',
				{ channel: 'qr', phoneNumber: DEMO.alice.phone, text: 'Your table is ready' },
				{ options: { timeoutSeconds: 0.5 } },
			);
			const before = h.sandbox.calls().length;
			const result = await h.run({ parameters });
			const sends = h.sandbox
				.calls()
				.slice(before)
				.filter((call) => call.tool === 'send_message');
			expect(sends).toHaveLength(5);
			expect(sends.filter((call) => call.replayed)).toHaveLength(4);
			expect(result.json[0]).toMatchObject({
				status: 'accepted',
				outcomeCheck: { tool: 'get_operation', status: 'succeeded' },
			});
		} finally {
			await proxy.stop();
		}
	});
});
