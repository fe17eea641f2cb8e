import { describe, expect, it } from 'vitest';

import { getToolFields } from '../../../../nodes/MessagingAutomation/methods/resourceMapping';
import { operationOf, useHarness } from '../harness';

/* Resource-mapper fields from a tool's live JSON Schema. */

const h = useHarness({}, { resetEach: false });

const fieldsOf = async (tool: string) =>
	await getToolFields.call(h.loadOptions({ ...operationOf(tool), inputMode: 'mapper' }));
const callTool = async (toolName: string) =>
	await getToolFields.call(
		h.loadOptions({ resource: 'other', operation: 'callTool', toolName, inputMode: 'mapper' }),
	);

describe('resource mapper fields', () => {
	it("map types, required fields and enums; the idempotency key is the node's to set", async () => {
		const { fields } = await fieldsOf('send_message');
		const byId = Object.fromEntries(fields.map((field) => [field.id, field]));
		expect(Object.keys(byId)).not.toContain('idempotencyKey');
		expect(byId.channel).toMatchObject({
			type: 'options',
			required: false,
			options: [
				{ name: 'Business', value: 'business' },
				expect.objectContaining({ name: 'QR (Personal Number)', value: 'qr' }),
			],
		});
		expect(byId.recipientOptInConfirmed).toMatchObject({ type: 'boolean' });
		expect(byId.templateParameters).toMatchObject({ type: 'array' });
		expect(byId.text).toMatchObject({ type: 'string', displayName: 'Text' });
	});

	it('give nested lists an example default', async () => {
		const { fields } = await fieldsOf('add_campaign_recipients');
		const recipients = fields.find((field) => field.id === 'recipients');
		expect(recipients).toMatchObject({ type: 'array', required: true });
		expect(JSON.parse(String(recipients?.defaultValue))).toEqual([
			{
				phoneNumber: '4915112345678',
				consentSource: 'Website newsletter form',
				consentAt: '2026-10-01T09:30:00Z',
			},
		]);
		const campaign = fields.find((field) => field.id === 'campaignId');
		expect(campaign).toMatchObject({ type: 'string', displayName: 'Campaign ID', required: true });
	});

	it('use numbers and date-times where the schema says so', async () => {
		const analytics = await fieldsOf('get_business_messaging_analytics');
		expect(analytics.fields).toEqual([expect.objectContaining({ id: 'days', type: 'number' })]);
		const estimate = await fieldsOf('estimate_business_price');
		expect(estimate.fields.find((field) => field.id === 'freeEntryPointWindow')?.type).toBe(
			'boolean',
		);
	});

	it('fall back to the catalogue offline, and say so when nothing is known', async () => {
		h.engine.credentialsHelper.set('messagingAutomationApi', {
			apiKey: 'k',
			baseUrl: 'http://127.0.0.1:9',
			authScheme: 'bearer',
		});
		expect((await fieldsOf('create_group')).fields.map((field) => field.id)).toEqual([
			'subject',
			'participants',
		]);
		const unknown = await callTool('teleport_message');
		expect(unknown.fields).toEqual([]);
		expect(unknown.emptyFieldsNotice).toMatch(/JSON input mode/);
	});

	it('follow the tool chosen under Call Another Tool', async () => {
		const { fields } = await callTool('search_messages');
		expect(fields.map((field) => field.id)).toContain('query');
	});
});
