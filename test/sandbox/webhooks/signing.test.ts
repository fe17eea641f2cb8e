import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT, envelopeOf, setupWebhooks, type WebhookHarness } from './testHarness';
import { matchingSignatures } from './testReceiver';

let h: WebhookHarness;
beforeEach(async () => {
	h = await setupWebhooks();
});
afterEach(async () => h.close());

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('event envelope and signature', () => {
	it('sends the spec envelope, signed over id.timestamp.body as node:crypto computes it', async () => {
		const { secret } = await h.createEndpoint();
		await h.receiver.waitFor(1);
		const data = { message: { id: 'wamid.1', conversation_id: '4915112345678', text: 'Grüße 👋' } };
		const emitted = h.service.emit(ACCOUNT, 'message.received', data);
		const [, request] = await h.receiver.waitFor(2);

		expect(Object.keys(envelopeOf(request))).toEqual([
			'id',
			'type',
			'created_at',
			'api_version',
			'account_id',
			'data',
		]);
		expect(envelopeOf(request)).toEqual({
			id: emitted.id,
			type: 'message.received',
			created_at: new Date(h.clock.now()).toISOString(),
			api_version: '2026-10-01',
			account_id: ACCOUNT,
			data,
		});
		expect(emitted.id).toMatch(/^evt_/);
		expect(envelopeOf(request).created_at).toMatch(ISO_MS);
		expect(request.method).toBe('POST');
		expect(request.headers['content-type']).toBe('application/json');
		expect(request.headers['webhook-id']).toBe(emitted.id);
		expect(request.headers['webhook-timestamp']).toBe(String(Math.floor(h.clock.now() / 1000)));
		expect(String(request.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
		expect(matchingSignatures(request, [secret])).toBe(1);

		// The reference library agrees, and a different secret or a changed byte fails.
		expect(
			new Webhook(secret).verify(request.body, request.headers as Record<string, string>),
		).toEqual(envelopeOf(request));
		const other = (await h.api('POST', `/${h.service.endpoints()[0].id}/rotate-secret`, {}))
			.body as { secret: string };
		const tampered = {
			...request,
			body: Buffer.from(request.body.toString().replace('Grüße', 'Grusse')),
		};
		expect(matchingSignatures(request, [other.secret])).toBe(0);
		expect(matchingSignatures(tampered, [secret])).toBe(0);
	});

	it('records each attempt with the exact headers and raw bytes that went out', async () => {
		await h.createEndpoint();
		await h.receiver.waitFor(1);
		const { id } = h.emitText();
		const [, request] = await h.receiver.waitFor(2);
		const [attempt] = (await h.waitForDelivery(id, (d) => d.status === 'delivered')).attemptLog;
		expect(attempt.body?.equals(request.body)).toBe(true);
		expect(attempt.headers['webhook-signature']).toBe(request.headers['webhook-signature']);
		expect(attempt).toMatchObject({
			statusCode: 200,
			error: null,
			attempt: 1,
			duplicate: false,
			at: h.clock.now(),
		});
	});

	it('delivers only the event types an endpoint subscribed to, to every subscriber', async () => {
		const second = await h.createEndpoint(['message.received', 'message.sent']);
		await h.createEndpoint(['message.sent']);
		const emitted = h.emitText();
		expect(emitted.deliveryIds).toHaveLength(1);
		expect(h.service.deliveries().find((d) => d.id === emitted.deliveryIds[0])?.endpointId).toBe(
			second.id,
		);
		expect(() => h.service.emit(ACCOUNT, 'message.deleted', {})).toThrow(/unknown event type/);
	});
});

describe('secret rotation', () => {
	it('signs with both secrets for 24 hours, then with the new one only', async () => {
		const created = await h.createEndpoint();
		await h.receiver.waitFor(1);
		const rotated = (await h.api('POST', `/${created.id}/rotate-secret`, {})).body as {
			secret: string;
		};

		h.emitText('during the overlap');
		const [, during] = await h.receiver.waitFor(2);
		expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
		expect(matchingSignatures(during, [rotated.secret])).toBe(1);
		expect(matchingSignatures(during, [created.secret])).toBe(1);

		h.clock.advance(24 * 3600_000 - 1);
		h.emitText('last millisecond of the overlap');
		const [, , lastMoment] = await h.receiver.waitFor(3);
		expect(matchingSignatures(lastMoment, [created.secret])).toBe(1);

		h.clock.advance(1);
		h.emitText('after the overlap');
		const [, , , after] = await h.receiver.waitFor(4);
		expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
		expect(matchingSignatures(after, [rotated.secret])).toBe(1);
		expect(matchingSignatures(after, [created.secret])).toBe(0);
	});
});

describe('payload cap', () => {
	it('cuts oversized text to fit 256 KB and sets text_truncated; small payloads are untouched', async () => {
		const { secret } = await h.createEndpoint();
		await h.receiver.waitFor(1);
		const long = 'é'.repeat(100_000) + '👋'.repeat(40_000) + '"'.repeat(10_000);
		h.emitText(long);
		h.emitText('short');
		const [, cut, short] = await h.receiver.waitFor(3);

		expect(cut.body.length).toBeLessThanOrEqual(256 * 1024);
		// As close to the cap as one more character allows: nothing is cut needlessly.
		expect(cut.body.length).toBeGreaterThan(256 * 1024 - 8);
		const message = (
			envelopeOf(cut).data as { message: { text: string; text_truncated?: boolean } }
		).message;
		expect(message.text_truncated).toBe(true);
		expect(long.startsWith(message.text)).toBe(true);
		expect(message.text.length).toBeLessThan(long.length);
		expect(matchingSignatures(cut, [secret])).toBe(1);
		expect((envelopeOf(short).data as { message: object }).message).not.toHaveProperty(
			'text_truncated',
		);
	});

	it('refuses an event that cannot fit even without its text', async () => {
		await h.createEndpoint(['message.status']);
		expect(() =>
			h.service.emit(ACCOUNT, 'message.status', { errors: ['x'.repeat(300_000)] }),
		).toThrow(/exceeds/);
	});
});
