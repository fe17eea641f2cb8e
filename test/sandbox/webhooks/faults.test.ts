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
		expect(h.service.faults.pending()).toEqual({ duplicate: 0, reorder: 1, held: 2 });
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
});
