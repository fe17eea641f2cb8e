import { beforeEach, describe, expect, it } from 'vitest';

import { DEMO, type RecordedCall } from '../../../../sandbox';
import { fieldsParameters } from '../../harness';
import { expectExactlyOnceUnderFaults, useFastHarness } from './sendsUnderFaults';

/*
 * Exactly one effect per item under faults: dropped connections after the commit, 503s,
 * answers held past the time-out, and outcome_unknown both when the write happened and when it
 * did not. Every item must end with its message sent once and reported with its real id.
 */

const h = useFastHarness();

describe('a run of sends under injected faults', () => {
	// 200 sends and 12 rounds of faults in guardedCall.soak.test.ts.
	it('ends with exactly one message per item, each reported truthfully (44 sends)', async () => {
		await expectExactlyOnceUnderFaults(h, { sends: 44, rounds: 4 });
	});
});

describe('uncertain outcomes, one at a time', () => {
	// The default time-out, so a busy machine never turns a slow answer into one more attempt.
	const qrSend = fieldsParameters('send_message', {
		channel: 'qr',
		phoneNumber: DEMO.alice.phone,
		text: 'Your table is ready',
	});
	const sendsOf = (calls: RecordedCall[]) => calls.filter((call) => call.tool === 'send_message');

	beforeEach(() => {
		h.sandbox.reset();
		h.sandbox.clock.setSpeed(1);
	});

	it('outcome_unknown after the write happened: confirmed with get_operation, not sent again', async () => {
		h.sandbox.faults.add({ tool: 'send_message', kind: 'outcomeUnknown', commit: true });
		const result = await h.run({ parameters: qrSend });
		expect(sendsOf(result.calls)).toHaveLength(1);
		expect(result.calls.map((call) => call.tool)).toEqual(['send_message', 'get_operation']);
		expect(result.json[0]).toMatchObject({
			status: 'accepted',
			outcomeCheck: { tool: 'get_operation', status: 'succeeded' },
		});
	});

	it('outcome_unknown when the write did not happen: sent again with the same key, once', async () => {
		h.sandbox.faults.add({ tool: 'send_message', kind: 'outcomeUnknown', commit: false });
		const result = await h.run({ parameters: qrSend });
		const sends = sendsOf(result.calls);
		expect(sends.map((call) => call.status)).toEqual([409, 200]);
		expect(sends[1].idempotencyKey).toBe(sends[0].idempotencyKey);
		expect(result.json[0]).toMatchObject({ status: 'accepted' });
		expect(result.json[0]).not.toHaveProperty('outcomeCheck');
	});

	it('time-outs on every attempt: the key tells what happened', async () => {
		h.sandbox.faults.add({ tool: 'send_message', kind: 'delay', delayMs: 1_200, times: 5 });
		// A check that itself times out is retried, so a busy machine cannot change what is asserted.
		const result = await h.run({ parameters: { ...qrSend, options: { timeoutSeconds: 0.5 } } });
		const sends = sendsOf(result.calls);
		expect(sends).toHaveLength(5);
		expect(sends.filter((call) => call.replayed)).toHaveLength(4);
		expect(result.json[0]).toMatchObject({
			status: 'accepted',
			outcomeCheck: { tool: 'get_operation', status: 'succeeded' },
		});
	});

	it('falls back to get_send_status when get_operation cannot answer', async () => {
		h.sandbox.faults.add({ tool: 'send_message', kind: 'outcomeUnknown', commit: true });
		h.sandbox.faults.add({ tool: 'get_operation', kind: 'toolError422' });
		const result = await h.run({ parameters: qrSend });
		expect(result.calls.map((call) => call.tool)).toEqual([
			'send_message',
			'get_operation',
			'get_send_status',
		]);
		expect(result.json[0]).toMatchObject({
			status: 'sent',
			outcomeCheck: { tool: 'get_send_status', status: 'sent' },
		});
		expect(sendsOf(result.calls)).toHaveLength(1);
	});
});
