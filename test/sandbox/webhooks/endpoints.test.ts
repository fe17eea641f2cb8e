import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxApiError } from '../sandboxError';
import { envelopeOf, setupWebhooks, type WebhookHarness } from './testHarness';

let h: WebhookHarness;
beforeEach(async () => {
	h = await setupWebhooks();
});
afterEach(async () => h.close());

async function apiError(call: Promise<unknown>): Promise<SandboxApiError> {
	const error = await call.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(SandboxApiError);
	return error as SandboxApiError;
}

describe('creating an endpoint', () => {
	it('returns the endpoint with a whsec_ secret of 24 random bytes, once', async () => {
		const created = await h.createEndpoint(['message.received', 'message.sent']);
		expect(created).toMatchObject({
			id: expect.stringMatching(/^we_/),
			url: h.receiver.url,
			event_types: ['message.received', 'message.sent'],
			status: 'active',
			api_version: '2026-10-01',
			created_at: new Date(h.clock.now()).toISOString(),
		});
		expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
		expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(24);

		const listed = (await h.api('GET', '')).body as { webhooks: Record<string, unknown>[] };
		expect(listed.webhooks.map((w) => w.id)).toEqual([created.id]);
		expect(listed.webhooks[0]).not.toHaveProperty('secret');
		expect((await h.api('GET', `/${created.id}`)).body).not.toHaveProperty('secret');
	});

	it('queues a webhook.test event for the new endpoint, even when not subscribed to it', async () => {
		const created = await h.createEndpoint(['message.status']);
		const [request] = await h.receiver.waitFor(1);
		expect(envelopeOf(request)).toMatchObject({
			type: 'webhook.test',
			data: { message: expect.any(String) },
		});
		const delivered = await h.waitForDelivery(
			envelopeOf(request).id,
			(d) => d.status === 'delivered',
		);
		expect(delivered.endpointId).toBe(created.id);
	});

	it('refuses unknown properties, naming them', async () => {
		const error = await apiError(
			h.api('POST', '', { url: h.receiver.url, event_types: ['message.sent'], secret: 'x' }),
		);
		expect(error).toMatchObject({ status: 400, code: 'invalid_input', extra: { field: 'secret' } });
		expect(error.message).toContain('secret');
	});

	it.each([
		[{ event_types: ['message.sent'] }, 'url'],
		[{ url: 'https://hooks.example.invalid/in' }, 'event_types'],
		[{ url: 'ftp://hooks.example.invalid/in', event_types: ['message.sent'] }, 'url'],
		[{ url: 'http://hooks.example.invalid/in', event_types: ['message.sent'] }, 'url'],
		[{ url: 'not a url', event_types: ['message.sent'] }, 'url'],
		[{ url: 'https://user:pw@hooks.example.invalid/in', event_types: ['message.sent'] }, 'url'],
		[{ url: 'https://hooks.example.invalid/in', event_types: [] }, 'event_types'],
		[{ url: 'https://hooks.example.invalid/in', event_types: 'message.sent' }, 'event_types'],
		[
			{ url: 'https://hooks.example.invalid/in', event_types: ['message.sent', 'message.deleted'] },
			'event_types[1]',
		],
	])('refuses %j with invalid_input on %s', async (body, field) => {
		const error = await apiError(h.api('POST', '', body));
		expect(error).toMatchObject({ status: 400, code: 'invalid_input', extra: { field } });
	});

	it('accepts public https, and http only on loopback unless strictUrls', async () => {
		await expect(
			h.createEndpoint(['message.sent'], 'https://hooks.example.invalid/in'),
		).resolves.toMatchObject({ status: 'active' });
		await expect(
			h.createEndpoint(['message.sent'], 'http://localhost:9/in'),
		).resolves.toMatchObject({ status: 'active' });

		const strict = await setupWebhooks({ strictUrls: true });
		try {
			for (const url of [
				strict.receiver.url,
				'https://localhost/in',
				'https://10.1.2.3/in',
				'https://192.168.0.2/in',
			]) {
				const error = await apiError(strict.createEndpoint(['message.sent'], url));
				expect(error.extra).toEqual({ field: 'url' });
			}
			await expect(
				strict.createEndpoint(['message.sent'], 'https://hooks.example.invalid/in'),
			).resolves.toHaveProperty('id');
		} finally {
			await strict.close();
		}
	});

	it('allows at most ten endpoints per account; deleted ones do not count', async () => {
		const created = [];
		for (let i = 0; i < 10; i++)
			created.push(await h.createEndpoint(['message.sent'], `https://hooks.example.invalid/${i}`));
		const error = await apiError(
			h.createEndpoint(['message.sent'], 'https://hooks.example.invalid/11'),
		);
		expect(error).toMatchObject({ status: 422, code: 'tool_error' });
		expect(error.message).toMatch(/at most 10 webhook endpoints/);

		// Another account has its own ten.
		await expect(
			h.api(
				'POST',
				'',
				{ url: 'https://hooks.example.invalid/x', event_types: ['message.sent'] },
				'acc_other',
			),
		).resolves.toBeTruthy();

		await h.api('DELETE', `/${created[3].id}`);
		await expect(
			h.createEndpoint(['message.sent'], 'https://hooks.example.invalid/11'),
		).resolves.toHaveProperty('id');
	});
});

describe('managing an endpoint', () => {
	it('patches url and event types with the same validation', async () => {
		const { id } = await h.createEndpoint();
		const patched = await h.api('PATCH', `/${id}`, {
			event_types: ['message.sent', 'message.sent'],
			url: 'https://hooks.example.invalid/new',
		});
		expect(patched.body).toMatchObject({
			url: 'https://hooks.example.invalid/new',
			event_types: ['message.sent'],
		});
		const error = await apiError(h.api('PATCH', `/${id}`, { status: 'paused' }));
		expect(error.extra).toEqual({ field: 'status' });
	});

	it('pauses, resumes and deletes; a deleted endpoint is gone from the API', async () => {
		const { id } = await h.createEndpoint();
		expect((await h.api('POST', `/${id}/pause`, {})).body).toMatchObject({ status: 'paused' });
		expect((await h.api('POST', `/${id}/resume`, {})).body).toMatchObject({ status: 'active' });
		expect((await h.api('DELETE', `/${id}`)).body).toEqual({ id, deleted: true });
		expect(await apiError(h.api('GET', `/${id}`))).toMatchObject({
			status: 404,
			code: 'not_found',
		});
		expect(((await h.api('GET', '')).body as { webhooks: unknown[] }).webhooks).toEqual([]);
	});

	it("hides one account's endpoints from another", async () => {
		const { id } = await h.createEndpoint();
		expect(await apiError(h.api('GET', `/${id}`, undefined, 'acc_other'))).toMatchObject({
			status: 404,
		});
		expect(await apiError(h.api('DELETE', `/${id}`, undefined, 'acc_other'))).toMatchObject({
			status: 404,
		});
	});

	it('rotates the secret, returning the new one and when the previous one stops signing', async () => {
		const created = await h.createEndpoint();
		const rotated = (await h.api('POST', `/${created.id}/rotate-secret`, {})).body as Record<
			string,
			string
		>;
		expect(rotated.secret).toMatch(/^whsec_/);
		expect(rotated.secret).not.toBe(created.secret);
		expect(rotated).toEqual({
			id: created.id,
			secret: rotated.secret,
			previous_secret_expires_at: new Date(h.clock.now() + 24 * 3600_000).toISOString(),
		});
	});

	it('refuses a body on action routes and unknown routes', async () => {
		const { id } = await h.createEndpoint();
		expect(await apiError(h.api('POST', `/${id}/pause`, { now: true }))).toMatchObject({
			status: 400,
			extra: { field: 'now' },
		});
		expect(await apiError(h.api('POST', `/${id}/explode`, {}))).toMatchObject({
			status: 404,
			code: 'not_found',
		});
		expect(await apiError(h.api('PUT', `/${id}`, {}))).toMatchObject({ status: 404 });
	});
});
