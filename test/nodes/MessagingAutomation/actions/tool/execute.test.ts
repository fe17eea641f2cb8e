import type { IDataObject, INodeParameters, ResourceMapperFields } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { getToolFields } from '../../../../../nodes/MessagingAutomation/methods/resourceMapping';
import { DEMO } from '../../../../sandbox';
import { DOCUMENTED_TOOLS } from '../../../shared/catalogue/specTable';
import { fieldsParameters, mapperValue, operationOf, useHarness } from '../../harness';

/*
 * Every tool the spec documents, called through a real workflow in n8n's engine against the
 * sandbox: catalogue tools through their generated fields, the tools only the service describes
 * through the resource mapper built from their live schema.
 */

const FORM_DEFINITION = {
	version: '7.2',
	screens: [
		{
			id: 'CONTACT',
			title: 'Contact us',
			data: {},
			terminal: true,
			success: true,
			layout: {
				type: 'SingleColumnLayout',
				children: [
					{ type: 'TextInput', name: 'email', label: 'Email', 'input-type': 'email' },
					{ type: 'Footer', label: 'Send', 'on-click-action': { name: 'complete', payload: { email: '${form.email}' } } },
				],
			},
		},
	],
};

// The tools build on one another's results, so the sandbox keeps its state between tests.
const h = useHarness({}, { resetEach: false });
const succeeded = new Set<string>();

async function viaFields(tool: string, input: IDataObject, rest: INodeParameters = {}): Promise<IDataObject> {
	const result = await h.run({ parameters: fieldsParameters(tool, input, rest) });
	expect(result.error?.message).toBeUndefined();
	expect(result.calls.map((call) => [call.tool, call.status])).toContainEqual([tool, 200]);
	succeeded.add(tool);
	return result.json[0];
}

async function viaMapper(tool: string, value: IDataObject, rest: INodeParameters = {}): Promise<IDataObject[]> {
	const base = { ...operationOf(tool), inputMode: 'mapper' };
	const { fields } = (await getToolFields.call(h.loadOptions(base))) as ResourceMapperFields;
	const result = await h.run({ parameters: { ...base, toolInput: mapperValue(fields, value), ...rest } });
	expect(result.error?.message).toBeUndefined();
	expect(result.calls.filter((call) => call.tool === tool).every((call) => call.status === 200)).toBe(true);
	succeeded.add(tool);
	return result.json;
}

describe('every documented tool, called from a workflow', () => {
	let campaignId = '';
	let sentId = '';
	let operationId = '';

	it('campaigns: create, add recipients, analyse a CSV, cancel', async () => {
		const created = await viaFields('create_campaign', { name: 'Autumn', templateName: 'order_update', templateLanguage: 'en', maxMessages: 100 });
		campaignId = String(created.campaign_id);
		expect(created.state).toBe('draft');
		const added = await viaFields(
			'add_campaign_recipients',
			{ campaignId, recipients: JSON.stringify([{ phoneNumber: DEMO.alice.phone, parameters: ['Alice', '1', 'x'], consentSource: 'web form', consentAt: '2026-10-01T09:30:00Z' }]) },
		);
		expect(added.added).toBe(1);
		const report = await viaFields('analyze_campaign_csv', { csv: 'phone,opt_in\n4915112345678,yes', requiredTemplateVariables: 0 });
		expect(report.rows).toBe(1);
		const cancelled = await viaFields('cancel_campaign', { campaignId });
		expect(cancelled.state).toBe('cancelled');
	});

	it('messages: send, status, operation, edit, forward, delete, check options', async () => {
		const sent = await viaFields('send_message', { channel: 'qr', phoneNumber: DEMO.alice.phone, text: 'Your order shipped' });
		sentId = String(sent.message_id);
		operationId = String(sent.operation_id);
		expect(sent.status).toBe('accepted');
		expect((await viaFields('get_send_status', { message_id: sentId })).status).toBe('sent');
		expect((await viaFields('get_operation', { operation_id: operationId })).status).toBe('succeeded');
		expect((await viaFields('edit_message', { targetMessageId: sentId, text: 'Your order has shipped' })).edited).toBe(true);
		const [first] = await viaMapper('get_messages', { conversationId: `${DEMO.alice.phone}@s.whatsapp.net` }, { returnAll: true });
		expect(first.conversation_id).toBe(`${DEMO.alice.phone}@s.whatsapp.net`);
		const incoming = (await viaMapper('search_messages', { query: 'order 1042' }, { returnAll: true }))[0];
		const forwarded = await viaFields('forward_message', { phoneNumber: DEMO.carol.phone, sourceMessageId: String(incoming.id) });
		expect(forwarded.source_message_id).toBe(incoming.id);
		expect((await viaFields('delete_message', { targetMessageId: sentId })).deleted).toBe(true);
		const options = await viaFields('check_recipient_send_options', { channel: 'business', phoneNumber: DEMO.carol.phone });
		expect(options).toBeTypeOf('object');
	});

	it('chats and files: list, search attachments, link, delete a chat', async () => {
		const chats = await viaMapper('list_conversations', { channel: 'qr' }, { returnAll: true });
		expect(chats.length).toBeGreaterThan(2);
		const files = await viaMapper('search_attachments', { query: 'receipt' }, { returnAll: true });
		expect(files[0].file_name).toBe('receipt-1042.png');
		const link = await viaFields('get_attachment_link', { message_id: String(files[0].stored_message_id) });
		expect(String(link.url)).toContain('/files/');
		expect((await viaFields('delete_chat', { conversationId: `${DEMO.bob.phone}@s.whatsapp.net` })).deleted ?? true).toBeTruthy();
	});

	it('groups and number filters', async () => {
		const group = await viaFields('create_group', { subject: 'Launch crew', participants: `${DEMO.alice.phone}, ${DEMO.bob.phone}` });
		expect(group.jid).toMatch(/@g\.us$/);
		await viaFields('add_group_participants', { jid: DEMO.adminGroup.jid, participants: DEMO.carol.phone }, { inputMode: 'fields' });
		await viaFields('demote_group_admins', { jid: DEMO.adminGroup.jid, participants: DEMO.alice.phone }, { inputMode: 'fields' });
		await viaFields('add_number_filter', { phoneNumber: '+49 30 1234567', name: 'Office' }, { inputMode: 'fields' });
	});

	it('templates, forms and the Business account', async () => {
		const template = await viaFields('create_business_template', {
			name: 'n8n_welcome',
			language: 'en',
			category: 'UTILITY',
			body: 'Welcome {{1}}!',
			bodyExamples: 'Ann',
		});
		expect(template.name).toBe('n8n_welcome');
		const [approved] = await viaMapper('get_business_template', { name: 'order_update' });
		expect(approved.status).toBe('APPROVED');
		const form = await viaFields('create_messenger_form', { name: 'Contact', categories: ['CONTACT_US'], definition: JSON.stringify(FORM_DEFINITION) });
		expect(String(form.preview_url)).toMatch(/^http/);
		const price = await viaFields('estimate_business_price', { market: 'DE', currency: 'EUR', category: 'Marketing', messages: 1000 });
		expect(price).toBeTypeOf('object');
		for (const tool of ['get_account_context', 'get_business_account', 'get_business_billing_context', 'get_business_health']) {
			await viaFields(tool, {}, { simplify: false });
		}
		await viaFields('get_business_messaging_analytics', { days: 7 });
		await viaMapper('get_business_pricing_analytics', { days: 30 });
	});

	it('covered every tool the spec documents, those with assumed shapes included', () => {
		expect([...succeeded].sort()).toEqual([...DOCUMENTED_TOOLS].sort());
	});
});
