import { describe, expect, it } from 'vitest';

import { deriveIdempotencyKey } from '../../../../../nodes/shared/client/idempotency';
import { DEMO } from '../../../../sandbox';
import { fieldsParameters, useHarness } from '../../harness';

/*
 * Keys per the plan: from the trigger's event id plus a hash of the node (and a counter when one
 * event fans out), chosen by expression when the user wants, generated otherwise; the same key on
 * every retry, so reruns of an event never send twice and two nodes never collide.
 */

const h = useHarness();

const reply = fieldsParameters('send_message', {
	channel: 'qr',
	phoneNumber: '={{ $json.sender.phone }}',
	text: 'Thanks, we are on it',
});
const event = (id: string) => ({
	event_id: id,
	event_type: 'message.received',
	sender: { phone: DEMO.alice.phone, name: 'Alice' },
});
const ownMessages = () =>
	h.sandbox.state.accounts
		.get(DEMO.accountId)
		?.messages.filter((message) => message.fromMe && message.idempotencyKey) ?? [];

describe('idempotency keys', () => {
	it('derive from the event id and the node, so a rerun of the event replays instead of sending again', async () => {
		const first = await h.run({ id: 'node-reply', parameters: reply }, [event('evt_01HZY')]);
		expect(first.calls[0].idempotencyKey).toBe(deriveIdempotencyKey('evt_01HZY', 'node-reply'));
		expect(first.calls[0].idempotencyKey).toMatch(/^evt_01HZY:[A-Za-z0-9_-]{10}$/);
		const rerun = await h.run({ id: 'node-reply', parameters: reply }, [event('evt_01HZY')]);
		expect(rerun.calls[0]).toMatchObject({
			idempotencyKey: first.calls[0].idempotencyKey,
			replayed: true,
		});
		expect(rerun.json[0].message_id).toBe(first.json[0].message_id);
		expect(ownMessages()).toHaveLength(1);
	});

	it('differ between two nodes answering the same event', async () => {
		const result = await h.run(
			[
				{ id: 'node-a', name: 'Reply A', parameters: reply },
				{ id: 'node-b', name: 'Reply B', parameters: reply },
			],
			[event('evt_same')],
		);
		const keys = result.calls.map((call) => call.idempotencyKey);
		expect(new Set(keys).size).toBe(2);
		expect(result.calls.every((call) => call.status === 200 && !call.replayed)).toBe(true);
		expect(ownMessages()).toHaveLength(2);
	});

	it('tell apart the items one event fanned out into, stably across reruns', async () => {
		const items = [event('evt_fan'), event('evt_fan')];
		const first = await h.run({ id: 'node-fan', parameters: reply }, items);
		const keys = first.calls.map((call) => call.idempotencyKey);
		expect(keys).toEqual([
			deriveIdempotencyKey('evt_fan', 'node-fan'),
			deriveIdempotencyKey('evt_fan', 'node-fan', 1),
		]);
		const rerun = await h.run({ id: 'node-fan', parameters: reply }, items);
		expect(rerun.calls.map((call) => [call.idempotencyKey, call.replayed])).toEqual(
			keys.map((key) => [key, true]),
		);
	});

	it('come from the Idempotency Key option when set, evaluated per item', async () => {
		const parameters = { ...reply, options: { idempotencyKey: '={{ "order-" + $json.orderId }}' } };
		const items = [
			{ ...event('evt_x'), orderId: 1042 },
			{ ...event('evt_y'), orderId: 1043 },
		];
		const result = await h.run({ parameters }, items);
		expect(result.calls.map((call) => call.idempotencyKey)).toEqual(['order-1042', 'order-1043']);
		const invalid = await h.run(
			{ parameters: { ...reply, options: { idempotencyKey: 'short' } } },
			[event('evt_z')],
		);
		expect(invalid.error?.message).toMatch(/Idempotency Key must be 8-128 characters/);
		expect(invalid.calls).toEqual([]);
	});

	it('are generated per item otherwise, and kept for every retry of that item', async () => {
		h.sandbox.faults.add({ tool: 'send_message', kind: 'toolError503', times: 2 });
		const result = await h.run({ parameters: reply }, [
			{ sender: { phone: DEMO.alice.phone } },
			{ sender: { phone: DEMO.bob.phone } },
		]);
		const [firstTry, secondTry, success, other] = result.calls;
		expect([firstTry.status, secondTry.status, success.status, other.status]).toEqual([
			503, 503, 200, 200,
		]);
		expect(new Set([firstTry, secondTry, success].map((call) => call.idempotencyKey)).size).toBe(1);
		expect(other.idempotencyKey).not.toBe(success.idempotencyKey);
		expect(success.idempotencyKey).toMatch(/^n8n-[0-9a-f-]{36}$/);
	});
});
