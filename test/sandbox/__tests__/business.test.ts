import { describe, expect, it } from 'vitest';
import { DEMO } from '../index';
import { useSandbox, write } from './harness';

describe('sandbox Business tools', () => {
	const api = useSandbox();
	const estimate = (input: Record<string, unknown>) =>
		api.call('estimate_business_price', {
			market: 'US',
			currency: 'USD',
			messages: 1500,
			...input,
		});

	it('bills Service messages after the first 1,000 per month per number (billing note 2026-10-01)', async () => {
		const { body } = await estimate({ category: 'Service', customerServiceWindow: true });
		expect(body).toMatchObject({
			free_messages: 1000,
			billable_messages: 500,
			rate_per_message: 0.003,
			estimated_total: 1.5,
			billing_rules: '2026-10-01',
			binding: false,
		});
		const later = await estimate({
			category: 'Service',
			customerServiceWindow: true,
			alreadyDelivered: 800,
		});
		expect(later.body).toMatchObject({ free_messages: 200, billable_messages: 1300 });
		expect(later.body.notes.join(' ')).toMatch(/excludes taxes and provider fees/);
	});

	it('bills utility templates inside the window; only freeEntryPointWindow makes messages free', async () => {
		expect(
			(await estimate({ category: 'Utility', customerServiceWindow: true })).body,
		).toMatchObject({ free_messages: 0, estimated_total: 6 });
		for (const category of ['Marketing', 'Utility', 'Service', 'Authentication']) {
			const free = await estimate({ category, freeEntryPointWindow: true });
			expect(free.body).toMatchObject({
				free_messages: 1500,
				billable_messages: 0,
				estimated_total: 0,
			});
		}
	});

	it('applies the earlier rules before 2026-10-01 on the sandbox clock', async () => {
		api.sandbox.clock.set(Date.parse('2026-09-30T12:00:00Z'));
		expect(
			(await estimate({ category: 'Service', customerServiceWindow: true })).body,
		).toMatchObject({ free_messages: 1500, billing_rules: 'before-2026-10-01' });
		expect(
			(await estimate({ category: 'Utility', customerServiceWindow: true })).body.estimated_total,
		).toBe(0);
	});

	it('prices volume tiers for utility messages and converts currencies', async () => {
		const { body } = await estimate({
			category: 'Utility',
			messages: 200_000,
			alreadyDelivered: 50_000,
		});
		expect(body.tiers).toEqual([
			{ from: 50_000, to: 100_000, messages: 50_000, rate: 0.004, cost: 200 },
			{ from: 100_000, to: 250_000, messages: 150_000, rate: 0.0038, cost: 570 },
		]);
		expect(body.estimated_total).toBe(770);
		const eur = await estimate({ category: 'Marketing', currency: 'eur', messages: 100 });
		expect(eur.body).toMatchObject({
			currency: 'EUR',
			rate_per_message: 0.023,
			estimated_total: 2.3,
		});
		expect((await estimate({ category: 'Marketing', currency: 'XYZ' })).status).toBe(422);
		expect((await estimate({ category: 'Marketing', market: 'ZZ' })).body.notes.join(' ')).toMatch(
			/rest-of-world/,
		);
		expect((await estimate({ category: 'Promo' })).body.error.field).toBe('category');
	});

	it('reports account, health and billing context without provider credentials', async () => {
		const account = await api.call('get_business_account', {});
		expect(account.body).toMatchObject({ phone: DEMO.businessPhone, sending_state: 'available' });
		expect(JSON.stringify(account.body)).not.toMatch(/token|secret|password/i);
		const health = await api.call('get_business_health', {});
		expect(health.body.entities.map((e: { entity_type: string }) => e.entity_type)).toEqual([
			'BUSINESS',
			'WABA',
			'PHONE_NUMBER',
		]);
		expect((await api.call('get_business_billing_context', {})).body).toMatchObject({
			currency: 'USD',
			free_service_messages_per_month: 1000,
		});
	});

	it('counts sent and delivered messages in analytics and prices them in pricing analytics', async () => {
		const sent = await write(api, 'send_message', {
			channel: 'business',
			phoneNumber: DEMO.carol.phone,
			text: 'Yes',
		});
		await write(api, 'send_message', {
			channel: 'business',
			phoneNumber: DEMO.carol.phone,
			text: 'And Saturdays',
		});
		await api.control('POST', '/inject/status', {
			message_id: sent.body.message_id,
			status: 'read',
		});
		const analytics = await api.call('get_business_messaging_analytics', { days: 7 });
		expect(analytics.body).toMatchObject({
			days: 7,
			accepted: 2,
			sent: 1,
			delivered: 1,
			failed: 0,
		});
		expect(
			(await api.call('get_business_messaging_analytics', { days: 91 })).body.error.field,
		).toBe('days');
		const pricing = await api.call('get_business_pricing_analytics', { days: 7 });
		expect(pricing.body).toMatchObject({
			categories: [{ category: 'Service', delivered: 1, free: 1, billable: 0, cost: 0 }],
			total_cost: 0,
		});
	});

	it('creates templates for review and reads them back', async () => {
		const created = await write(api, 'create_business_template', {
			name: 'delivery_slot',
			language: 'en',
			category: 'UTILITY',
			body: 'Hi {{1}}, your slot is {{2}}.',
			bodyExamples: ['Ann', '9-11'],
		});
		expect(created.body).toMatchObject({
			name: 'delivery_slot',
			status: 'PENDING',
			variable_count: 2,
		});
		const read = await api.call('get_business_template', { name: 'delivery_slot' });
		expect(read.body).toMatchObject({ status: 'PENDING', body: 'Hi {{1}}, your slot is {{2}}.' });
		const duplicate = await write(api, 'create_business_template', {
			name: 'delivery_slot',
			language: 'en',
			category: 'UTILITY',
			body: 'x',
		});
		expect(duplicate.status).toBe(422);
		const noExamples = await write(api, 'create_business_template', {
			name: 'x_one',
			language: 'en',
			category: 'UTILITY',
			body: 'Hi {{1}}',
		});
		expect(noExamples.body.error.message).toMatch(/one sample per numbered variable/);
		const gap = await write(api, 'create_business_template', {
			name: 'x_two',
			language: 'en',
			category: 'UTILITY',
			body: 'Hi {{2}}',
			bodyExamples: ['a'],
		});
		expect(gap.body.error.message).toMatch(/without gaps/);
		expect(
			(
				await write(api, 'create_business_template', {
					name: 'Bad-Name',
					language: 'en',
					category: 'UTILITY',
					body: 'x',
				})
			).body.error.field,
		).toBe('name');
		expect((await api.call('get_business_template', { name: 'nope' })).status).toBe(422);
	});
});
