import { afterEach, describe, expect, it, vi } from 'vitest';
import { createIds } from '../ids';
import { envelopeOf, failingExceptTest, setupWebhooks, type WebhookHarness } from './testHarness';
import { startReceiver, WAIT } from './testReceiver';

const SCHEDULE_MS = [30e3, 120e3, 600e3, 1800e3, 3600e3, 3 * 3600e3, 6 * 3600e3, 12 * 3600e3];
const DAY = 24 * 3600e3;

let h: WebhookHarness;
afterEach(async () => h.close());

describe('retry schedule', () => {
	it('retries after 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h (±20%), then fails after nine attempts', async () => {
		h = await setupWebhooks({ responder: failingExceptTest(500), random: createIds(7).random });
		await h.createEndpoint();
		const { id } = h.emitText();
		const delays: number[] = [];
		for (let attempt = 1; attempt <= 8; attempt++) {
			const delivery = await h.waitForDelivery(id, (d) => d.attemptLog.length === attempt);
			const last = delivery.attemptLog[attempt - 1];
			expect(delivery).toMatchObject({
				status: 'queued',
				attempts: attempt,
				lastStatusCode: 500,
				lastError: 'http_500',
			});
			const delay = (delivery.nextAttemptAt as number) - last.completedAt;
			expect(delay).toBeGreaterThanOrEqual(SCHEDULE_MS[attempt - 1] * 0.8);
			expect(delay).toBeLessThanOrEqual(SCHEDULE_MS[attempt - 1] * 1.2);
			delays.push(delay);
			// One millisecond early nothing happens; at the due time the next attempt goes out.
			h.clock.set((delivery.nextAttemptAt as number) - 1);
			await new Promise((resolve) => setTimeout(resolve, 20));
			expect(h.delivery(id).attemptLog).toHaveLength(attempt);
			h.clock.advance(1);
		}
		const failed = await h.waitForDelivery(id, (d) => d.status === 'failed');
		expect(failed).toMatchObject({ attempts: 9, nextAttemptAt: null });
		expect(delays.some((delay, i) => delay !== SCHEDULE_MS[i])).toBe(true);

		// Every attempt carried the same event id and the same bytes.
		const attempts = h.receiver.received.filter((r) => envelopeOf(r).id === id);
		expect(attempts).toHaveLength(9);
		expect(new Set(attempts.map((r) => r.headers['webhook-id']))).toEqual(new Set([id]));
		expect(new Set(attempts.map((r) => r.body.toString()))).toHaveProperty('size', 1);
	});

	it('follows a sped-up clock through the whole schedule', async () => {
		h = await setupWebhooks({ responder: failingExceptTest(503), speed: 400_000 });
		await h.createEndpoint();
		const { id } = h.emitText();
		const failed = await h.waitForDelivery(id, (d) => d.status === 'failed');
		const log = failed.attemptLog;
		expect(log).toHaveLength(9);
		for (let i = 1; i < 9; i++) {
			const waited = log[i].at - log[i - 1].completedAt;
			expect(waited).toBeGreaterThanOrEqual(SCHEDULE_MS[i - 1] * 0.8);
		}
	});

	it('succeeds on a later attempt and stops retrying', async () => {
		let failuresLeft = 2;
		h = await setupWebhooks({
			responder: (request) =>
				envelopeOf(request).type === 'webhook.test' || failuresLeft-- <= 0 ? 200 : 500,
		});
		await h.createEndpoint();
		await h.receiver.waitFor(1);
		const { id } = h.emitText();
		for (const attempt of [1, 2]) {
			const d = await h.waitForDelivery(
				id,
				(x) => x.attempts === attempt && x.status === 'queued' && x.attemptLog.length === attempt,
			);
			h.clock.set(d.nextAttemptAt as number);
		}
		expect(await h.waitForDelivery(id, (d) => d.status === 'delivered')).toMatchObject({
			attempts: 3,
			nextAttemptAt: null,
		});
	});
});

describe('failures that are not plain errors', () => {
	it('does not follow redirects: a 3xx is a failed attempt', async () => {
		const target = await startReceiver();
		h = await setupWebhooks({
			responder: (request) =>
				envelopeOf(request).type === 'webhook.test' ? 200 : { status: 307, location: target.url },
		});
		try {
			await h.createEndpoint();
			const { id } = h.emitText();
			const d = await h.waitForDelivery(id, (x) => x.attemptLog.length === 1);
			expect(d).toMatchObject({
				status: 'queued',
				lastStatusCode: 307,
				lastError: 'redirect_not_followed',
			});
			expect(target.received).toHaveLength(0);
		} finally {
			await target.close();
		}
	});

	it('times out a receiver that does not answer and retries later', async () => {
		h = await setupWebhooks({ responder: failingExceptTest('hang'), fetchTimeoutMs: 150 });
		await h.createEndpoint();
		const { id } = h.emitText();
		const d = await h.waitForDelivery(id, (x) => x.attemptLog.length === 1);
		expect(d).toMatchObject({
			status: 'queued',
			lastStatusCode: null,
			lastError: 'timeout',
			attempts: 1,
		});
		expect(d.nextAttemptAt).not.toBeNull();
	});

	it('reports an unreachable receiver as a failed attempt', async () => {
		const closed = await startReceiver();
		await closed.close();
		h = await setupWebhooks();
		await h.createEndpoint(['message.received'], closed.url);
		const [test] = h.service.deliveries();
		expect(await h.waitForDelivery(test.eventId, (x) => x.attemptLog.length === 1)).toMatchObject({
			lastError: 'ECONNREFUSED',
		});
	});
});

describe('disabling an endpoint', () => {
	it('disables at once on HTTP 410 and fails what was queued', async () => {
		// One request at a time: the second event is still queued when the first meets the 410.
		h = await setupWebhooks({ responder: failingExceptTest(410), requestsInFlight: 1 });
		const endpoint = await h.createEndpoint();
		await h.receiver.waitFor(1);
		const first = h.emitText('one');
		const second = h.emitText('two');
		await h.waitForDelivery(first.id, (d) => d.status === 'failed');
		expect((await h.api('GET', `/${endpoint.id}`)).body).toMatchObject({
			status: 'disabled',
			disabled_reason: 'gone',
		});
		expect(h.delivery(first.id)).toMatchObject({ attempts: 1, lastStatusCode: 410 });
		expect(h.delivery(second.id)).toMatchObject({ status: 'failed', attempts: 0 });
		expect(h.emitText('three').deliveryIds).toEqual([]);
		expect(h.receiver.received).toHaveLength(2);

		// Resuming re-enables it for new events.
		h.receiver.setResponder(() => 200);
		await h.api('POST', `/${endpoint.id}/resume`, {});
		const fourth = h.emitText('four');
		await h.waitForDelivery(fourth.id, (d) => d.status === 'delivered');
	});

	const endpointStatus = async (id: string) => (await h.api('GET', `/${id}`)).body;

	it('disables on the 100th consecutive failure once failures have lasted three days', async () => {
		h = await setupWebhooks({ responder: failingExceptTest(500) });
		const endpoint = await h.createEndpoint();
		const first = h.emitText('first');
		await h.waitForDelivery(first.id, (d) => d.attemptLog.length === 1);
		h.clock.advance(3 * DAY);
		await h.waitForDelivery(first.id, (d) => d.attemptLog.length === 2);
		const more = Array.from({ length: 97 }, (_, i) => h.emitText(`n${i}`));
		await h.waitForDelivery(more[96].id, (d) => d.attemptLog.length === 1);
		expect(await endpointStatus(endpoint.id)).toMatchObject({ status: 'active' });
		expect(h.service.endpoints()[0].consecutiveFailures).toBe(99);

		const last = h.emitText('last');
		await h.waitForDelivery(last.id, (d) => d.status === 'failed');
		expect(await endpointStatus(endpoint.id)).toMatchObject({
			status: 'disabled',
			disabled_reason: 'consecutive_failures',
		});
		expect(h.receiver.received).toHaveLength(1 + 2 + 97 + 1);
		expect(h.service.deliveries().filter((d) => d.status === 'queued')).toEqual([]);
		expect(h.emitText().deliveryIds).toEqual([]);
	});

	it('does not disable before the failures have lasted three days, however many', async () => {
		h = await setupWebhooks({ responder: failingExceptTest(500) });
		const endpoint = await h.createEndpoint();
		const failures = (count: number) =>
			vi.waitFor(() => expect(h.service.endpoints()[0].consecutiveFailures).toBe(count), WAIT);
		Array.from({ length: 100 }, () => h.emitText());
		await failures(100);
		h.clock.advance(3 * DAY - 1);
		await failures(200);
		expect(await endpointStatus(endpoint.id)).toMatchObject({ status: 'active' });

		h.clock.advance(1);
		const tipping = h.emitText();
		await h.waitForDelivery(tipping.id, (d) => d.status === 'failed');
		expect(await endpointStatus(endpoint.id)).toMatchObject({
			status: 'disabled',
			disabled_reason: 'consecutive_failures',
		});
		expect(h.receiver.received).toHaveLength(202);
	});
});
