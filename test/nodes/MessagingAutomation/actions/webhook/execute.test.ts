import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { useHarness } from '../../harness';

/* The Webhook resource: register, list, get, update, pause/resume, rotate, deliveries, delete. */

const h = useHarness({}, { resetEach: false });
let receiver: Server;
let receiverUrl = '';
beforeAll(async () => {
	receiver = createServer((_, res) => res.writeHead(204).end());
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
	receiver.close();
});

const webhook = async (operation: string, rest: INodeParameters = {}): Promise<IDataObject[]> => {
	const result = await h.run({ parameters: { resource: 'webhook', operation, ...rest } });
	expect(result.error?.message).toBeUndefined();
	return result.json;
};

describe('webhook endpoints', () => {
	it('manages an endpoint through its whole life', async () => {
		const [created] = await webhook('register', {
			url: receiverUrl,
			eventTypes: ['message.received', 'message.status'],
		});
		expect(created).toMatchObject({
			url: receiverUrl,
			status: 'active',
			event_types: ['message.received', 'message.status'],
		});
		expect(String(created.secret)).toMatch(/^whsec_/);
		const webhookId = String(created.id);

		expect((await webhook('list')).map((endpoint) => endpoint.id)).toContain(webhookId);
		expect((await webhook('get', { webhookId }))[0]).not.toHaveProperty('secret');
		const [updated] = await webhook('update', {
			webhookId,
			updateFields: { eventTypes: ['message.received'] },
		});
		expect(updated.event_types).toEqual(['message.received']);
		expect((await webhook('pause', { webhookId }))[0].status).toBe('paused');
		expect((await webhook('resume', { webhookId }))[0].status).toBe('active');
		const [rotated] = await webhook('rotateSecret', { webhookId });
		expect(String(rotated.secret)).toMatch(/^whsec_/);
		expect(rotated.secret).not.toBe(created.secret);

		const deliveries = await webhook('listDeliveries', { webhookId });
		expect(deliveries.length).toBeGreaterThan(0);
		const [resent] = await webhook('resendDelivery', {
			webhookId,
			deliveryId: String(deliveries[0].id),
		});
		expect(resent).toMatchObject({ delivery_id: deliveries[0].id, status: 'queued' });

		expect((await webhook('delete', { webhookId }))[0]).toEqual({ id: webhookId, deleted: true });
		expect((await webhook('list')).map((endpoint) => endpoint.id)).not.toContain(webhookId);
	});

	it('needs the webhook-management scope', async () => {
		h.usePersona('noWebhooks');
		const result = await h.run({
			parameters: { resource: 'webhook', operation: 'list' },
			continueOnFail: true,
		});
		h.usePersona('owner');
		expect(result.json[0].error).toMatchObject({ code: 'insufficient_permission', httpCode: 403 });
		expect(String((result.json[0].error as IDataObject).message)).toMatch(
			/messenger\.webhooks:manage/,
		);
	});
});
