import { beforeEach, describe, expect, it } from 'vitest';

import { DEMO, SandboxClock, type RecordedCall } from '../../../../sandbox';
import { fieldsParameters, templateSendParameters, useHarness } from '../../harness';

/*
 * Exactly one effect per item under faults: dropped connections after the commit, 503s,
 * answers held past the time-out, and outcome_unknown both when the write happened and when it
 * did not. Every item must end with its message sent once and reported with its real id.
 */

const SPEED = 60;
const SENDS = 200;

// A minute of the sandbox passes in a second, so the 120 writes per minute do not slow the run.
const h = useHarness({ clock: new SandboxClock({ start: Date.UTC(2026, 9, 1, 8, 0, 0), speed: SPEED }) }, { resetEach: false });

const phoneOf = (index: number) => `4915100${String(index).padStart(5, '0')}`;

const templateSend = templateSendParameters({ timeoutSeconds: 0.5, rateLimitBudget: { budget: { windowSeconds: 60 / SPEED } } });

describe('a run of sends under injected faults', () => {
	it(`ends with exactly one message per item, each reported truthfully (${SENDS} sends)`, async () => {
		// Faults hit the next calls in order; zero-delay entries let some calls through in between.
		const pass = { kind: 'delay', delayMs: 0 } as const;
		const cycle = [
			{ kind: 'dropAfterCommit' },
			pass,
			{ kind: 'toolError503' },
			pass,
			{ kind: 'delay', delayMs: 1_500 },
			pass,
			{ kind: 'outcomeUnknown', commit: true },
			pass,
			{ kind: 'outcomeUnknown', commit: false },
			pass,
			pass,
		] as const;
		for (let round = 0; round < 12; round++) {
			for (const fault of cycle) h.sandbox.faults.add({ tool: 'send_message', ...fault });
		}
		const items = Array.from({ length: SENDS }, (_, index) => ({ phone: phoneOf(index), name: `Customer ${index}`, order: 5000 + index }));

		const result = await h.run({ parameters: templateSend, continueOnFail: true }, items);

		expect(result.error).toBeUndefined();
		expect(result.json.filter((json) => json.error)).toEqual([]);
		const sent = h.sandbox.state.accounts.get(DEMO.accountId)?.messages.filter((message) => message.fromMe && message.channel === 'business') ?? [];
		const byPhone = new Map(sent.map((message) => [message.to, message]));
		// zero duplicates, zero lost
		expect(sent).toHaveLength(SENDS);
		expect(byPhone.size).toBe(SENDS);
		// each item reports the message that was really sent for it
		result.json.forEach((json, index) => {
			expect(json.message_id).toBe(byPhone.get(phoneOf(index))?.id);
		});
		expect(result.output.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		// every retry kept its item's key: one key per message, never a second key for an item
		const sendCalls = result.calls.filter((call) => call.tool === 'send_message');
		const keysPerPhone = new Map<string, Set<string | null>>();
		for (const call of sendCalls) {
			const phone = (call.input as { phoneNumber: string }).phoneNumber;
			keysPerPhone.set(phone, (keysPerPhone.get(phone) ?? new Set()).add(call.idempotencyKey));
		}
		expect([...keysPerPhone.values()].every((keys) => keys.size === 1)).toBe(true);
		// the faults really happened, and the uncertain ones were checked, not guessed
		expect(sendCalls.length).toBeGreaterThan(SENDS + 40);
		expect(sendCalls.some((call) => call.replayed)).toBe(true);
		expect(result.calls.filter((call) => call.tool === 'get_operation').length).toBeGreaterThanOrEqual(20);
		expect(result.calls.filter((call) => call.errorCode === 'rate_limited')).toEqual([]);
		const confirmed = result.json.filter((json) => json.outcomeCheck);
		expect(confirmed.length).toBeGreaterThanOrEqual(10);
	});
});

describe('uncertain outcomes, one at a time', () => {
	const qrSend = fieldsParameters(
		'send_message',
		{ channel: 'qr', phoneNumber: DEMO.alice.phone, text: 'Your table is ready' },
		{ options: { timeoutSeconds: 0.5 } },
	);
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
		expect(result.json[0]).toMatchObject({ status: 'accepted', outcomeCheck: { tool: 'get_operation', status: 'succeeded' } });
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
		const result = await h.run({ parameters: qrSend });
		const sends = sendsOf(result.calls);
		expect(sends).toHaveLength(5);
		expect(sends.filter((call) => call.replayed)).toHaveLength(4);
		expect(result.json[0]).toMatchObject({ status: 'accepted', outcomeCheck: { tool: 'get_operation', status: 'succeeded' } });
	});

	it('falls back to get_send_status when get_operation cannot answer', async () => {
		h.sandbox.faults.add({ tool: 'send_message', kind: 'outcomeUnknown', commit: true });
		h.sandbox.faults.add({ tool: 'get_operation', kind: 'toolError422' });
		const result = await h.run({ parameters: qrSend });
		expect(result.calls.map((call) => call.tool)).toEqual(['send_message', 'get_operation', 'get_send_status']);
		expect(result.json[0]).toMatchObject({ status: 'sent', outcomeCheck: { tool: 'get_send_status', status: 'sent' } });
		expect(sendsOf(result.calls)).toHaveLength(1);
	});
});
