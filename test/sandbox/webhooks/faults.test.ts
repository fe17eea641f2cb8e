import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { envelopeOf, setupWebhooks, type WebhookHarness } from './testHarness';

let h: WebhookHarness;
beforeEach(async () => {
	// One request at a time, so the order in which the faults put requests is the order received.
	h = await setupWebhooks({ requestsInFlight: 1 });
	await h.createEndpoint();
	await h.receiver.waitFor(1);
});
afterEach(async () => h.close());

const DAY = 24 * 3600e3;
const idsReceived = () => h.receiver.received.slice(1).map((r) => String(r.headers['webhook-id']));

describe('webhook faults', () => {
	it('delivers the next N events twice, with the same event id and body', async () => {
		h.service.faults.duplicateNext(2);
		const a = h.emitText('a');
		const b = h.emitText('b');
		const c = h.emitText('c');
		await h.receiver.waitFor(6);
		expect(idsReceived()).toEqual([a.id, a.id, b.id, b.id, c.id]);
		const [first, again] = h.receiver.received.slice(1, 3);
		expect(again.body.equals(first.body)).toBe(true);
		expect(h.delivery(a.id)).toMatchObject({ status: 'delivered', attempts: 1 });
		expect(h.delivery(a.id).attemptLog.map((x) => x.duplicate)).toEqual([false, true]);
		expect(h.service.faults.pending()).toMatchObject({ duplicate: 0 });
	});

	it('delivers the next N events in reverse order', async () => {
		h.service.faults.reorderNext(3);
		const a = h.emitText('a');
		const b = h.emitText('b');
		expect(h.service.faults.pending()).toMatchObject({ duplicate: 0, reorder: 1, held: 2 });
		const c = h.emitText('c');
		const d = h.emitText('d');
		await h.receiver.waitFor(5);
		expect(idsReceived()).toEqual([c.id, b.id, a.id, d.id]);
	});

	it('releases held events when the faults are cleared', async () => {
		h.service.faults.reorderNext(5);
		const a = h.emitText('a');
		const b = h.emitText('b');
		h.service.faults.clear();
		await h.receiver.waitFor(3);
		expect(idsReceived()).toEqual([b.id, a.id]);
		expect(envelopeOf(h.receiver.received[1]).type).toBe('message.received');
	});

	it('loses the next N message events: nothing is queued or sent, later events go out', async () => {
		h.service.faults.loseNext(2);
		const status = h.service.emit('acc_demo', 'connection.connected', { channel: 'qr' });
		const a = h.emitText('a');
		const b = h.emitText('b');
		const c = h.emitText('c');
		expect([a.deliveryIds, b.deliveryIds]).toEqual([[], []]);
		expect(status.deliveryIds).toHaveLength(0); // not subscribed; and a connection event is never lost
		expect(h.service.faults.pending()).toMatchObject({ lose: 0 });
		await h.receiver.waitFor(2);
		h.clock.advance(DAY);
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(idsReceived()).toEqual([c.id]);
		expect(h.service.deliveries().map((d) => d.eventId)).not.toContain(a.id);
	});

	it('lets the next N deliveries run out of retries: nine failed attempts, none reaching the receiver', async () => {
		h.service.faults.exhaustNext(1);
		const lost = h.emitText('lost');
		const kept = h.emitText('kept');
		for (let attempt = 1; attempt < 9; attempt++) {
			const due = await h.waitForDelivery(lost.id, (d) => d.attemptLog.length === attempt);
			h.clock.set(due.nextAttemptAt as number);
		}
		const failed = await h.waitForDelivery(lost.id, (d) => d.status === 'failed');
		expect(failed).toMatchObject({ attempts: 9, lastError: 'no answer (sandbox fault: exhaust)' });
		expect(idsReceived()).toEqual([kept.id]);
	});

	it('disables the endpoint on request, as a 410 or 100 failures would: what was queued fails, nothing more is sent', async () => {
		h.service.faults.exhaustNext(1);
		const queued = h.emitText('queued');
		await h.waitForDelivery(queued.id, (d) => d.attemptLog.length === 1);
		const [endpoint] = h.service.disable('consecutive_failures');
		expect(endpoint).toMatchObject({ status: 'disabled', disabledReason: 'consecutive_failures' });
		expect(h.delivery(queued.id)).toMatchObject({ status: 'failed' });
		expect(h.emitText('after').deliveryIds).toEqual([]);
		expect(h.service.disable('gone')).toEqual([]);
	});
});
