import { describe, expect, it } from 'vitest';
import { useSandbox, write } from './harness';

const recipient = (n: number) => ({
	phoneNumber: `49151${String(n).padStart(8, '0')}`,
	parameters: ['Anna', String(n), 'shipped'],
	consentSource: 'checkout form',
	consentAt: '2026-11-01T10:00:00Z',
});
const range = (from: number, count: number) =>
	Array.from({ length: count }, (_, i) => recipient(from + i));

describe('sandbox campaigns', () => {
	const api = useSandbox();
	const create = async () => {
		const reply = await write(api, 'create_campaign', {
			name: 'Autumn notice',
			templateName: 'order_update',
			templateLanguage: 'en',
			maxMessages: 1000,
		});
		expect(reply.status).toBe(200);
		return reply.body.campaign_id as string;
	};
	const add = (campaignId: string, recipients: unknown[]) =>
		write(api, 'add_campaign_recipients', { campaignId, recipients });

	it('creates a draft from an approved template without creating sends', async () => {
		const reply = await write(api, 'create_campaign', {
			name: 'Autumn notice',
			templateName: 'order_update',
			templateLanguage: 'en',
			maxMessages: 1000,
		});
		expect(reply.body).toMatchObject({
			campaign_id: expect.stringMatching(
				/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
			),
			state: 'draft',
			recipient_count: 0,
			max_messages: 1000,
			operation_id: expect.stringMatching(/^op_/),
		});
		expect(api.sandbox.inject.sends()).toEqual([]);
	});

	it('refuses templates that are not approved', async () => {
		const reply = await write(api, 'create_campaign', {
			name: 'Sale',
			templateName: 'spring_sale',
			templateLanguage: 'en',
			maxMessages: 10,
		});
		expect(reply.status).toBe(422);
		expect(reply.body.error.message).toMatch(/approved/);
	});

	it('checks the input bounds: name 1-120 characters, maxMessages 1-1,000,000', async () => {
		const long = await write(api, 'create_campaign', {
			name: 'x'.repeat(121),
			templateName: 'order_update',
			templateLanguage: 'en',
			maxMessages: 1,
		});
		expect(long.body.error.field).toBe('name');
		const cap = await write(api, 'create_campaign', {
			name: 'x',
			templateName: 'order_update',
			templateLanguage: 'en',
			maxMessages: 1_000_001,
		});
		expect(cap.body.error.field).toBe('maxMessages');
	});

	it('appends recipients in batches of up to 500, deduplicating numbers across batches', async () => {
		const id = await create();
		const first = await add(id, range(0, 500));
		expect(first.body).toMatchObject({ added: 500, duplicates_skipped: 0, recipient_count: 500 });
		const second = await add(id, [...range(498, 4), recipient(498)]);
		expect(second.body).toMatchObject({ added: 2, duplicates_skipped: 3, recipient_count: 502 });
		expect(second.body.duplicate_numbers).toEqual([
			recipient(498).phoneNumber,
			recipient(499).phoneNumber,
			recipient(498).phoneNumber,
		]);
	});

	it('refuses more than 500 or zero recipients per call, naming recipients', async () => {
		const id = await create();
		for (const recipients of [range(0, 501), []]) {
			const reply = await add(id, recipients);
			expect(reply.status).toBe(400);
			expect(reply.body.error.field).toBe('recipients');
		}
	});

	it('requires consentSource and a date-time consentAt for each recipient', async () => {
		const id = await create();
		const reply = await add(id, [{ ...recipient(1), consentAt: 'yesterday' }]);
		expect(reply.body.error.field).toBe('recipients[0].consentAt');
		const missing = await add(id, [{ phoneNumber: '4915100000001' }]);
		expect(missing.body.error.field).toBe('recipients[0].consentSource');
	});

	it('cancels for good: state cancelled, no more recipients, no second cancel', async () => {
		const id = await create();
		const cancel = await write(api, 'cancel_campaign', { campaignId: id });
		expect(cancel.body).toMatchObject({
			campaign_id: id,
			state: 'cancelled',
			cancelled_at: '2026-11-20T10:00:00.000Z',
		});
		expect((await add(id, range(0, 1))).status).toBe(422);
		const again = await write(api, 'cancel_campaign', { campaignId: id });
		expect(again.status).toBe(422);
		expect(again.body.error.message).toMatch(/permanent/);
		expect((await api.control('POST', `/campaigns/${id}/state`, { state: 'running' })).status).toBe(
			400,
		);
	});

	it('cancels running and paused campaigns too, and takes recipients only while draft', async () => {
		for (const state of ['running', 'paused']) {
			const id = await create();
			await api.control('POST', `/campaigns/${id}/state`, { state });
			expect((await add(id, range(0, 1))).status).toBe(422);
			expect((await write(api, 'cancel_campaign', { campaignId: id })).body.state).toBe(
				'cancelled',
			);
		}
	});

	it('answers tool_error for a campaign id that does not exist', async () => {
		const reply = await add('3f2b8c1e-0d4a-4e7b-9a51-6c2d9e8f1a00', range(0, 1));
		expect(reply.status).toBe(422);
		expect((await add('not-a-uuid', range(0, 1))).body.error.field).toBe('campaignId');
	});
});
