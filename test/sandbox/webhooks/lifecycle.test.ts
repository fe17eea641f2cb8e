import { afterEach, describe, expect, it } from 'vitest';
import { SandboxApiError } from '../sandboxError';
import { envelopeOf, failingExceptTest, setupWebhooks, type WebhookHarness } from './testHarness';

const DAY = 24 * 3600e3;

let h: WebhookHarness;
afterEach(async () => h.close());

interface DeliveryView {
	id: string;
	event_id: string;
	status: string;
	attempts: number;
	payload_available: boolean;
}

const deliveriesOf = async (endpointId: string) =>
	((await h.api('GET', `/${endpointId}/deliveries`)).body as { deliveries: DeliveryView[] })
		.deliveries;

const errorOf = (call: Promise<unknown>) =>
	call.then(
		() => undefined,
		(e: SandboxApiError) => e,
	);

describe('paused and deleted endpoints', () => {
	it('keeps deliveries queued while paused and sends them on resume', async () => {
		h = await setupWebhooks();
		const { id } = await h.createEndpoint();
		await h.receiver.waitFor(1);
		await h.api('POST', `/${id}/pause`, {});
		const event = h.emitText();
		h.clock.advance(DAY);
		expect(h.delivery(event.id)).toMatchObject({ status: 'queued', attempts: 0 });
		expect(h.receiver.received).toHaveLength(1);

		await h.api('POST', `/${id}/resume`, {});
		await h.waitForDelivery(event.id, (d) => d.status === 'delivered');
		expect(h.receiver.received.map((r) => envelopeOf(r).id)).toEqual([
			h.service.deliveries()[0].eventId,
			event.id,
		]);
	});

	it('lets a request in flight finish after pause, without sending more', async () => {
		// One request at a time: the second event is still queued while the first hangs.
		h = await setupWebhooks({ responder: failingExceptTest('hang'), requestsInFlight: 1 });
		const { id } = await h.createEndpoint();
		const first = h.emitText('first');
		const second = h.emitText('second');
		await h.receiver.waitFor(2);
		await h.api('POST', `/${id}/pause`, {});
		h.receiver.releaseHanging(200);
		await h.waitForDelivery(first.id, (d) => d.status === 'delivered');
		h.clock.advance(DAY);
		expect(h.delivery(second.id)).toMatchObject({ status: 'queued', attempts: 0 });
		expect(h.receiver.received).toHaveLength(2);
	});

	it('fails queued deliveries of a deleted endpoint and sends it nothing more', async () => {
		h = await setupWebhooks({ responder: failingExceptTest(500) });
		const { id } = await h.createEndpoint();
		const event = h.emitText();
		await h.waitForDelivery(event.id, (d) => d.attemptLog.length === 1);
		await h.api('DELETE', `/${id}`);
		expect(h.delivery(event.id)).toMatchObject({ status: 'failed', lastError: 'http_500' });
		expect(h.emitText().deliveryIds).toEqual([]);
		h.clock.advance(DAY);
		expect(h.receiver.received).toHaveLength(2);
	});
});

describe('resend and retention', () => {
	it('resends with the same event id and bytes, as a new attempt', async () => {
		h = await setupWebhooks();
		const { id } = await h.createEndpoint();
		const event = h.emitText();
		await h.waitForDelivery(event.id, (d) => d.status === 'delivered');
		const [listed] = await deliveriesOf(id);
		expect(listed).toMatchObject({
			event_id: event.id,
			status: 'delivered',
			attempts: 1,
			payload_available: true,
		});

		h.clock.advance(3600e3);
		expect((await h.api('POST', `/${id}/deliveries/${listed.id}/resend`, {})).body).toEqual({
			delivery_id: listed.id,
			status: 'queued',
		});
		await h.waitForDelivery(event.id, (d) => d.attempts === 2 && d.status === 'delivered');
		const [original, resent] = h.receiver.received.filter((r) => envelopeOf(r).id === event.id);
		expect(resent.headers['webhook-id']).toBe(event.id);
		expect(resent.body.equals(original.body)).toBe(true);
		expect(
			Number(resent.headers['webhook-timestamp']) - Number(original.headers['webhook-timestamp']),
		).toBe(3600);
	});

	it('gives a failed delivery one more attempt on resend', async () => {
		h = await setupWebhooks({ responder: failingExceptTest(500) });
		const { id } = await h.createEndpoint();
		const event = h.emitText();
		for (let attempt = 1; attempt < 9; attempt++) {
			const d = await h.waitForDelivery(event.id, (x) => x.attemptLog.length === attempt);
			h.clock.set(d.nextAttemptAt as number);
		}
		const failed = await h.waitForDelivery(event.id, (d) => d.status === 'failed');
		h.receiver.setResponder(() => 200);
		await h.api('POST', `/${id}/deliveries/${failed.id}/resend`, {});
		expect(await h.waitForDelivery(event.id, (d) => d.status === 'delivered')).toMatchObject({
			attempts: 10,
		});
	});

	it('drops payloads after 7 days (no resend) and all metadata after 30', async () => {
		h = await setupWebhooks();
		const { id } = await h.createEndpoint();
		const event = h.emitText();
		await h.waitForDelivery(event.id, (d) => d.status === 'delivered');
		const deliveryId = h.delivery(event.id).id;

		h.clock.advance(7 * DAY - 1);
		expect((await deliveriesOf(id)).every((d) => d.payload_available)).toBe(true);
		h.clock.advance(1);
		expect((await deliveriesOf(id)).map((d) => d.payload_available)).toEqual([false, false]);
		expect(h.delivery(event.id).attemptLog[0].body).toBeNull();
		expect(
			await errorOf(h.api('POST', `/${id}/deliveries/${deliveryId}/resend`, {})),
		).toMatchObject({
			status: 422,
			code: 'tool_error',
		});

		h.clock.advance(23 * DAY);
		expect(await deliveriesOf(id)).toEqual([]);
		expect(h.service.attempts()).toEqual([]);
		expect(
			await errorOf(h.api('POST', `/${id}/deliveries/${deliveryId}/resend`, {})),
		).toMatchObject({ status: 404 });
	});
});
